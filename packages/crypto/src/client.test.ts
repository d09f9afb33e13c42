// resetCryptoWorker() of client.ts: the browser path with a stand-in Worker (the real endpoint behind a
// MessageChannel), so that ending the worker is observable: it is terminated, a call in flight fails
// instead of hanging, and the next cryptoWorker() starts a new worker.
import { MessageChannel, type MessagePort } from 'node:worker_threads';

import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { expose, type Endpoint } from 'comlink';

import { cryptoWorker, resetCryptoWorker } from './client.ts';
import { createCryptoEndpoint } from './endpoint.ts';

/** A Worker whose other end is the crypto endpoint; `hold` keeps its answers back until released. */
class StandInWorker {
  static started: StandInWorker[] = [];
  terminated = false;
  readonly port: MessagePort;
  private readonly other: MessagePort;

  constructor() {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.other = channel.port2;
    expose(createCryptoEndpoint(), this.other as unknown as Endpoint);
    StandInWorker.started.push(this);
  }

  postMessage(message: unknown, transfer?: Transferable[]) {
    if (this.terminated) return; // a terminated worker answers nothing, as in a browser
    this.port.postMessage(message, transfer as never);
  }

  addEventListener(type: string, listener: (event: unknown) => void) {
    if (type === 'message') this.port.on('message', (data: unknown) => listener({ data }));
  }

  removeEventListener() {}

  terminate() {
    this.terminated = true;
    this.port.close();
    this.other.close();
  }
}

const globals = globalThis as Record<string, unknown>;

beforeAll(() => {
  globals.window = globalThis;
  globals.Worker = StandInWorker;
});

afterAll(() => {
  resetCryptoWorker();
  delete globals.window;
  delete globals.Worker;
});

test('the worker is terminated, a pending call fails, and the next call starts a new worker', async () => {
  const first = await cryptoWorker();
  expect(StandInWorker.started).toHaveLength(1);
  expect(await first.generateKey()).toMatch(/^[A-Za-z0-9+/]{43}=$/);

  const pending = first.deriveKEK('password', { kekSalt: 'AAECAwQFBgcICQoLDA0ODw==', opsLimit: 2, memLimit: 67108864 });
  resetCryptoWorker();
  await expect(pending).rejects.toThrow('the crypto worker was ended');
  expect(StandInWorker.started[0]?.terminated).toBe(true);
  // The old object stays dead…
  await expect(first.generateKey()).rejects.toThrow('the crypto worker was ended');

  // …and the next caller gets a fresh worker that works.
  const second = await cryptoWorker();
  expect(second).not.toBe(first);
  expect(StandInWorker.started).toHaveLength(2);
  expect(await second.generateKey()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
});

test('resetting when no worker runs does nothing', () => {
  resetCryptoWorker();
  expect(() => resetCryptoWorker()).not.toThrow();
});
