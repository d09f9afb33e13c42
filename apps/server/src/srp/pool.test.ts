// The SRP pool computes what @ente/crypto computes in-line, and refuses work past its queue bound.
import { computeSrpVerifierB64, createSrpClient, randomBytes, toB64 } from '@ente/crypto';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { HttpError } from '../http/errors.ts';
import { createSrpPool } from './pool.ts';

describe('SRP worker pool', () => {
  const pool = createSrpPool(1, 1);
  after(() => pool.close());

  test('B and the proof check round-trip with a client; a wrong M1 is null, a bad A is reported', async () => {
    const identity = {
      srpUserID: randomUUID(),
      srpSalt: toB64(await randomBytes(16)),
      loginSubKey: toB64(await randomBytes(16)),
    };
    const verifier = computeSrpVerifierB64(identity);
    const { serverSecret, srpB } = await pool.createServer(verifier);
    const client = await createSrpClient(identity);
    const srpM1 = client.computeM1B64(srpB);
    const proof = await pool.verifyProof({ verifier, serverSecret, srpA: client.srpA, srpM1 });
    assert.ok('srpM2' in proof && proof.srpM2 !== null && client.verifyM2(proof.srpM2));
    const wrong = await pool.verifyProof({
      verifier,
      serverSecret,
      srpA: client.srpA,
      srpM1: toB64(new Uint8Array(32)),
    });
    assert.deepEqual(wrong, { srpM2: null });
    const zeroA = toB64(new Uint8Array(512));
    assert.deepEqual(await pool.verifyProof({ verifier, serverSecret, srpA: zeroA, srpM1 }), {
      invalidA: 'invalid client public value A',
    });
    assert.equal(pool.completed, 4);
  });

  test('past the queue bound the answer is 429, and the queued work still completes', async () => {
    const verifier = toB64(await randomBytes(512));
    await pool.createServer(verifier); // the thread is up: one step runs, one waits, the third is refused
    const results = await Promise.allSettled([1, 2, 3].map(() => pool.createServer(verifier)));
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    const refused = (results[2] as PromiseRejectedResult).reason;
    assert.ok(refused instanceof HttpError && refused.status === 429);
  });
});
