/** @jest-environment node */
// The logout's sweep of the upload staging (staging-sweep.ts), as the app shell registers it (../storage.ts, which
// every page's _app imports): it must run in a tab that never loaded the upload code (uploader.ts is not imported
// here), and cancel the running uploads before it removes their files.
import { afterEach, beforeEach, expect, test } from '@jest/globals';

import { resetInMemoryState } from '@ente/shared/storage/in-memory.ts';

import '../storage.ts';

import { cancelAtLogout, STAGING_DIRECTORY } from './staging-sweep.ts';

const events: string[] = [];
beforeEach(() => {
  events.length = 0;
  const root = {
    removeEntry: (name: string, options?: { recursive?: boolean }) => {
      events.push(`remove ${name}${options?.recursive ? ' recursively' : ''}`);
      return Promise.resolve();
    },
  };
  Object.defineProperty(globalThis, 'navigator', {
    value: { storage: { getDirectory: () => Promise.resolve(root) } },
    configurable: true,
  });
});
afterEach(() => {
  delete (globalThis as { navigator?: unknown }).navigator;
});

test('logout removes the staging directory from any page, the upload code never loaded', async () => {
  await resetInMemoryState();
  expect(events).toEqual([`remove ${STAGING_DIRECTORY} recursively`]);
});

test('the running uploads are cancelled before their staging goes, once', async () => {
  cancelAtLogout(() => events.push('cancel queue'));
  await resetInMemoryState();
  await resetInMemoryState();
  expect(events).toEqual([
    'cancel queue',
    `remove ${STAGING_DIRECTORY} recursively`,
    `remove ${STAGING_DIRECTORY} recursively`,
  ]);
});
