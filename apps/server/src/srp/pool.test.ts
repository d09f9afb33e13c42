// The SRP pool computes what @ente/crypto computes in-line, and refuses work past its queue bound.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { computeSrpVerifierB64, createSrpClient, randomBytes, toB64, type SrpClientSession } from '@ente/crypto';

import { HttpError } from '../http/errors.ts';
import { createSrpPool } from './pool.ts';

describe('SRP worker pool', () => {
  const pool = createSrpPool(1, 1);
  after(() => pool.close());

  /** A verifier, a server step for it and a client that knows the password. */
  let exchange: { verifier: string; serverSecret: string; client: SrpClientSession; srpM1: string };
  let completedBefore: number;
  before(async () => {
    completedBefore = pool.completed;
    const identity = {
      srpUserID: randomUUID(),
      srpSalt: toB64(await randomBytes(16)),
      loginSubKey: toB64(await randomBytes(16)),
    };
    const verifier = computeSrpVerifierB64(identity);
    const serverSecret = toB64(await randomBytes(32));
    const { srpB } = await pool.createServer(verifier, serverSecret);
    const client = await createSrpClient(identity);
    exchange = { verifier, serverSecret, client, srpM1: client.computeM1B64(srpB) };
  });

  test('B and the proof check round-trip with a client, computed in the threads', async () => {
    const { verifier, serverSecret, client, srpM1 } = exchange;
    const proof = await pool.verifyProof({ verifier, serverSecret, srpA: client.srpA, srpM1 });
    assert.ok('srpM2' in proof && proof.srpM2 !== null && client.verifyM2(proof.srpM2));
    assert.equal(pool.completed - completedBefore, 2);
  });

  test('a wrong M1 gives no M2', async () => {
    const { verifier, serverSecret, client } = exchange;
    const srpM1 = toB64(new Uint8Array(32));
    assert.deepEqual(await pool.verifyProof({ verifier, serverSecret, srpA: client.srpA, srpM1 }), { srpM2: null });
  });

  test('an invalid A is reported, not thrown', async () => {
    const { verifier, serverSecret, srpM1 } = exchange;
    const srpA = toB64(new Uint8Array(512));
    assert.deepEqual(await pool.verifyProof({ verifier, serverSecret, srpA, srpM1 }), {
      invalidA: 'invalid client public value A',
    });
  });

  test('past the queue bound the answer is 429, and the queued work still completes', async () => {
    const verifier = toB64(await randomBytes(512));
    const secret = toB64(await randomBytes(32));
    await pool.createServer(verifier, secret); // the thread is up: one step runs, one waits, the third is refused
    const results = await Promise.allSettled([1, 2, 3].map(() => pool.createServer(verifier, secret)));
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    const refused: unknown = (results[2] as PromiseRejectedResult).reason;
    assert.ok(refused instanceof HttpError && refused.status === 429);
  });
});
