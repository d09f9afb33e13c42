// For tests only: a stand-in for the Next router (`useRouter()`), with the events the shell listens
// to and jest mocks for push, replace and prefetch. Use it from a `jest.mock('next/router', …)` factory.
import type { jest as jestTypes } from '@jest/globals';

type Handler = (...args: unknown[]) => void;

export interface FakeRouter {
  asPath: string;
  pathname: string;
  query: Record<string, string>;
  /** Next's: the query has been read from the address (always, here). */
  isReady: boolean;
  events: {
    on: (event: string, handler: Handler) => void;
    off: (event: string, handler: Handler) => void;
    emit: (event: string, ...args: unknown[]) => void;
  };
  push: jestTypes.Mock<(url: string) => Promise<boolean>>;
  replace: jestTypes.Mock<(url: string) => Promise<boolean>>;
  prefetch: jestTypes.Mock<(url: string) => Promise<void>>;
}

export function fakeRouter(asPath = '/'): FakeRouter {
  const handlers = new Map<string, Set<Handler>>();
  return {
    asPath,
    pathname: asPath.split('?')[0] ?? '/',
    query: {},
    isReady: true,
    events: {
      on: (event, handler) => {
        if (!handlers.has(event)) handlers.set(event, new Set());
        handlers.get(event)?.add(handler);
      },
      off: (event, handler) => handlers.get(event)?.delete(handler),
      emit: (event, ...args) => handlers.get(event)?.forEach((handler) => handler(...args)),
    },
    push: jest.fn(() => Promise.resolve(true)),
    replace: jest.fn(() => Promise.resolve(true)),
    prefetch: jest.fn(() => Promise.resolve()),
  };
}
