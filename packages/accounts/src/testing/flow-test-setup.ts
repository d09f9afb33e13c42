// For tests only: the set-up the sign-in flow tests share. Call `fakeServerPerTest()` at the top of a test
// file: msw serves a fresh FakeServer for each test (unhandled requests fail the test), the app is
// `auth` unless a test says otherwise, and storage (local, session, kv) is emptied after each test.
import 'fake-indexeddb/auto';

import { setupServer } from 'msw/node';

import { cryptoWorker, type CryptoRemote } from '@ente/crypto/client.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import { resetInMemoryState } from '@ente/shared/storage/in-memory.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';

import { backgroundWorkSettled } from '../services/flow-state.ts';
import { FakeServer } from './fake-server.ts';

export interface FlowTestContext {
  /** The fake API server of the running test. */
  readonly fake: FakeServer;
  /** The msw server, for `use(...)` overrides. */
  readonly msw: ReturnType<typeof setupServer>;
  /** The in-process crypto API (the same object the flows get), for spies. */
  readonly crypto: CryptoRemote;
}

export function fakeServerPerTest(): FlowTestContext {
  const msw = setupServer();
  const context = { fake: new FakeServer(), msw, crypto: undefined as unknown as CryptoRemote };
  beforeAll(async () => {
    msw.listen({ onUnhandledRequest: 'error' });
    context.crypto = await cryptoWorker();
  });
  beforeEach(() => {
    setAppName('auth');
    context.fake = new FakeServer();
    msw.resetHandlers(...context.fake.handlers);
  });
  afterEach(async () => {
    await backgroundWorkSettled();
    await resetInMemoryState();
    jest.restoreAllMocks();
    localStorage.clear();
    sessionStorage.clear();
    await deleteKVDatabase();
  });
  afterAll(() => msw.close());
  return context;
}
