// The server's native SRP against fast-srp-hap (the oracle of @ente/crypto's own SRP tests) and @ente/crypto:
// random exchanges, a B that wrapped around N, the protocol's fixed vector, the A values at the ends of
// 1..N−1, and every case that OpenSSL refuses and BigInt computes instead.
import assert from 'node:assert/strict';
import { createDiffieHellman, createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';

import { SRP, SrpClient, SrpServer } from 'fast-srp-hap';

import { computeSrpVerifierB64, createSrpClient, createSrpServerB64, verifySrpClientProofB64 } from '@ente/crypto';
import { srpVector } from '@ente/crypto/testing/vectors.ts';

import { computedByOpenSsl, createServer, modPow, srpGroup, verifyProof } from './native-srp.ts';

const params = SRP.params['4096'];
const { N, g, k } = srpGroup;
const q = (N - 1n) / 2n;

const toBigInt = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt('0x' + Buffer.from(bytes).toString('hex')));
const pad = (value: bigint) => Buffer.from(value.toString(16).padStart(1024, '0'), 'hex');
const bytesOf = (value: bigint) =>
  Buffer.from(value.toString(16).padStart(2 * Math.ceil(value.toString(16).length / 2), '0'), 'hex');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const sha256 = (...parts: Uint8Array[]) =>
  parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest();
const range = (from: number, to: number) => Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** base^exponent mod N, right to left: a second BigInt implementation to check both paths against. */
function referencePow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let square = ((base % N) + N) % N;
  for (let rest = exponent; rest > 0n; rest >>= 1n) {
    if (rest & 1n) result = (result * square) % N;
    square = (square * square) % N;
  }
  return result;
}

/** M1 and M2 (b64) for the client value A = `a` straight from the formulas, with the reference exponentiation. */
function formulaProofs(a: bigint, verifier: Uint8Array, b: Uint8Array, bBytes: Uint8Array) {
  const u = toBigInt(sha256(pad(a), bBytes));
  const s = pad(referencePow((a * referencePow(toBigInt(verifier), u)) % N, toBigInt(b)));
  const m1 = sha256(pad(a), bBytes, s);
  return { srpM1: b64(m1), srpM2: b64(sha256(pad(a), m1, sha256(s))) };
}

function randomIdentity() {
  return { srpUserID: randomUUID(), srpSalt: randomBytes(16), loginSubKey: randomBytes(16) };
}

/** The verifier of `identity` as fast-srp-hap computes it. */
function oracleVerifier(identity: ReturnType<typeof randomIdentity>): Buffer {
  return SRP.computeVerifier(params, identity.srpSalt, Buffer.from(identity.srpUserID), identity.loginSubKey);
}

/**
 * One exchange between fast-srp-hap's client (secret a) and our server (secret b), checked against
 * fast-srp-hap's server and @ente/crypto's client at every step; verification runs with B as stored
 * and with B computed again (a session from before B was kept). Returns B.
 */
async function exchange(identity: ReturnType<typeof randomIdentity>, verifier: Buffer, a: Uint8Array, b: Uint8Array) {
  const userID = Buffer.from(identity.srpUserID);
  const server = createServer(b64(verifier), b);
  const oracleServer = new SrpServer(params, verifier, Buffer.from(b));
  assert.equal(server.srpB, oracleServer.computeB().toString('base64'));
  assert.equal(server.serverSecret, b64(b));

  const oracleClient = new SrpClient(params, identity.srpSalt, userID, identity.loginSubKey, Buffer.from(a), false);
  const srpA = oracleClient.computeA();
  oracleClient.setB(Buffer.from(server.srpB, 'base64'));
  const srpM1 = oracleClient.computeM1();
  const client = await createSrpClient(identity, a);
  assert.equal(client.srpA, srpA.toString('base64'));
  assert.equal(client.computeM1B64(server.srpB), srpM1.toString('base64'));

  oracleServer.setA(srpA);
  oracleServer.checkM1(srpM1);
  const expected = { srpM2: oracleServer.computeM2().toString('base64') };
  const input = { verifier: b64(verifier), serverSecret: server.serverSecret, srpA: b64(srpA), srpM1: b64(srpM1) };
  assert.deepEqual(verifyProof({ ...input, srpB: server.srpB }), expected);
  assert.deepEqual(verifyProof(input), expected);
  assert.deepEqual(verifyProof({ ...input, srpB: null }), expected);
  assert.ok(client.verifyM2(expected.srpM2));
  return Buffer.from(server.srpB, 'base64');
}

describe('native SRP against fast-srp-hap and @ente/crypto', () => {
  test("the group is fast-srp-hap's 4096-bit one, k = H(PAD(N) ‖ PAD(g))", () => {
    assert.equal(N, BigInt('0x' + params.N.toString(16)));
    assert.equal(g, BigInt('0x' + params.g.toString(16)));
    assert.equal(g, 5n);
    assert.equal(k, toBigInt(sha256(pad(N), pad(g))));
  });

  test('random identities and secrets: B, M1 check and M2 are those of fast-srp-hap', async () => {
    for (let run = 0; run < 6; run++) {
      const identity = randomIdentity();
      const verifier = oracleVerifier(identity);
      assert.equal(b64(verifier), computeSrpVerifierB64(identity));
      await exchange(identity, verifier, randomBytes(32), randomBytes(32));
    }
  });

  test('a B that wrapped around N (B < k·v mod N, so B − k·g^x < 0 before reduction) gives the same values', async () => {
    const identity = randomIdentity();
    const verifier = oracleVerifier(identity);
    const kv = (k * toBigInt(verifier)) % N;
    let wrapped = false;
    for (let run = 0; run < 64 && !wrapped; run++) {
      const srpB = await exchange(identity, verifier, randomBytes(32), randomBytes(32));
      wrapped = toBigInt(srpB) < kv;
    }
    assert.ok(wrapped, 'no B wrapped around N in 64 tries');
  });

  test('secrets with leading zero bytes, and a b of zero (g^0 = 1, which OpenSSL refuses)', async () => {
    const identity = randomIdentity();
    const verifier = oracleVerifier(identity);
    const leadingZeros = Buffer.concat([Buffer.alloc(3), randomBytes(29)]);
    await exchange(identity, verifier, randomBytes(32), leadingZeros);
    await exchange(identity, verifier, leadingZeros, randomBytes(32));
    await exchange(identity, verifier, randomBytes(32), Buffer.alloc(32));
  });

  test('the protocol vectors (docs/protocol.md#test-vectors): a = 0x40..0x5f, b = 0x80..0x9f', async () => {
    const { identity, verifier } = srpVector;
    const server = createServer(verifier, range(0x80, 0x9f));
    assert.equal(
      sha256(Buffer.from(server.srpB, 'base64')).toString('hex'),
      'bf4c0105eb88d8f640387ce8e116dc92f39ae57cb41661371e4ec82b5797b01d',
    );
    assert.ok(server.srpB.startsWith('CJ3HVaWz/vJZPHJTxj+yzlcj'));
    const client = await createSrpClient(identity, range(0x40, 0x5f));
    const srpM1 = client.computeM1B64(server.srpB);
    assert.equal(srpM1, 'Nl0AQ5gcMSlAGGFwvpjaaqAkDfVEeJq/KIsKUAldcxI=');
    const input = { verifier, serverSecret: server.serverSecret, srpA: client.srpA, srpM1 };
    const expected = { srpM2: 'wAv7BJldAm5LIgwHFXhdSr6xixAteUeudbB5iIhYc64=' };
    assert.deepEqual(verifyProof({ ...input, srpB: server.srpB }), expected);
    assert.deepEqual(verifyProof(input), expected);
  });

  test('a wrong M1, one of the wrong length, or a wrong stored B gives no M2', async () => {
    const identity = randomIdentity();
    const verifier = computeSrpVerifierB64(identity);
    const server = createServer(verifier);
    const client = await createSrpClient(identity);
    const srpM1 = client.computeM1B64(server.srpB);
    const input = { verifier, serverSecret: server.serverSecret, srpA: client.srpA, srpB: server.srpB };
    const right = verifyProof({ ...input, srpM1 });
    assert.ok('srpM2' in right && right.srpM2 !== null && client.verifyM2(right.srpM2));
    const m1 = Buffer.from(srpM1, 'base64');
    m1[31] = (m1[31] ?? 0) ^ 1;
    assert.deepEqual(verifyProof({ ...input, srpM1: b64(m1) }), { srpM2: null });
    assert.deepEqual(verifyProof({ ...input, srpM1: b64(m1.subarray(0, 31)) }), { srpM2: null });
    assert.deepEqual(verifyProof({ ...input, srpM1: '' }), { srpM2: null });
    const other = createServer(verifier);
    assert.deepEqual(verifyProof({ ...input, srpB: other.srpB, srpM1 }), { srpM2: null });
    assert.throws(() => verifyProof({ ...input, srpM1: srpM1.slice(1) }), /base64/);
  });

  test('an A outside 1..N−1 or not of 512 bytes is invalidA', () => {
    const verifier = computeSrpVerifierB64(randomIdentity());
    const server = createServer(verifier);
    const invalid = [
      pad(0n),
      pad(N),
      pad(N + 1n),
      Buffer.alloc(512, 0xff),
      pad(1n).subarray(1),
      Buffer.concat([Buffer.alloc(1), pad(5n)]),
    ];
    for (const srpA of invalid) {
      const input = { verifier, serverSecret: server.serverSecret, srpA: b64(srpA), srpM1: b64(Buffer.alloc(32)) };
      assert.deepEqual(verifyProof(input), { invalidA: 'invalid client public value A' }, srpA.toString('hex', 0, 4));
    }
  });

  test('A = 1 and A = N−1 verify as the formulas, @ente/crypto and (for N−1) fast-srp-hap say', () => {
    const identity = randomIdentity();
    const verifier = oracleVerifier(identity);
    for (const a of [1n, N - 1n]) {
      const b = randomBytes(32);
      const server = createServer(b64(verifier), b);
      const { srpM1, srpM2 } = formulaProofs(a, verifier, b, Buffer.from(server.srpB, 'base64'));
      const input = { verifier: b64(verifier), serverSecret: server.serverSecret, srpA: b64(pad(a)), srpM1 };
      assert.equal(verifySrpClientProofB64(input), srpM2);
      assert.deepEqual(verifyProof({ ...input, srpB: server.srpB }), { srpM2 });
      assert.deepEqual(verifyProof(input), { srpM2 });
      // fast-srp-hap wrongly refuses A = 1 ("must be 1..N-1"), so it can only check N−1.
      if (a === 1n) continue;
      const oracle = new SrpServer(params, verifier, b);
      oracle.setA(pad(a));
      oracle.checkM1(Buffer.from(srpM1, 'base64'));
      assert.equal(oracle.computeM2().toString('base64'), srpM2);
    }
  });

  test('verifiers that lead OpenSSL to refuse (v = 0, 1, N−1; v ≥ N) give what @ente/crypto gives', async () => {
    const verifiers = [pad(0n), pad(1n), pad(N - 1n), pad(N), Buffer.alloc(512, 0xff)];
    for (const verifier of verifiers) {
      for (const a of [1n, N - 1n, toBigInt(randomBytes(500))]) {
        const b = randomBytes(32);
        const server = createServer(b64(verifier), b);
        assert.equal(server.srpB, (await createSrpServerB64(b64(verifier), b)).srpB);
        const { srpM1, srpM2 } = formulaProofs(a, verifier, b, Buffer.from(server.srpB, 'base64'));
        const input = { verifier: b64(verifier), serverSecret: server.serverSecret, srpA: b64(pad(a)), srpM1 };
        assert.equal(verifySrpClientProofB64(input), srpM2);
        assert.deepEqual(verifyProof({ ...input, srpB: server.srpB }), { srpM2 });
        assert.deepEqual(verifyProof(input), { srpM2 });
      }
    }
  });
});

describe('modPow: OpenSSL where it computes, BigInt where it refuses', () => {
  const random = toBigInt(randomBytes(512)) % N;
  const exponents = {
    'random 32 bytes': randomBytes(32),
    'leading zero bytes': Buffer.concat([Buffer.alloc(7), randomBytes(25)]),
    one: Buffer.from([1]),
    'q − 1': bytesOf(q - 1n),
    zero: Buffer.alloc(32),
    empty: Buffer.alloc(0),
    q: bytesOf(q),
    'N − 1': bytesOf(N - 1n),
  };
  const bases = {
    random,
    2: 2n,
    5: 5n,
    'N − 2': N - 2n,
    0: 0n,
    1: 1n,
    'N − 1': N - 1n,
    N,
    'N + 5': N + 5n,
    '2N − 1': 2n * N - 1n,
  };

  test('the premise: OpenSSL refuses a base of 0, 1 or N−1 and results of 1 (zero exponent, 2^q)', () => {
    const openssl = createDiffieHellman(pad(N), 2);
    const power = (base: bigint, exponent: Uint8Array) => {
      openssl.setPrivateKey(exponent);
      return toBigInt(openssl.computeSecret(pad(base)));
    };
    for (const base of [0n, 1n, N - 1n]) assert.throws(() => power(base, randomBytes(32)));
    assert.throws(() => power(random, Buffer.alloc(32)));
    assert.throws(() => power(2n, bytesOf(q)));
    assert.equal(power(2n, Buffer.from([1])), 2n);
    assert.equal(power(N - 2n, bytesOf(q - 1n)), referencePow(N - 2n, q - 1n));
  });

  test('every base and exponent gives the right 512 bytes, by the path expected', () => {
    const expectedOpenSsl = new Set(['random 32 bytes', 'leading zero bytes', 'one', 'q − 1']);
    for (const [baseName, base] of Object.entries(bases)) {
      const reduced = ((base % N) + N) % N;
      for (const [exponentName, exponent] of Object.entries(exponents)) {
        // The 4096-bit exponents take BigInt a tenth of a second: a few bases are enough for them.
        if (exponent.length > 100 && !['random', '2', 'N − 1'].includes(baseName)) continue;
        const label = `${baseName} ^ ${exponentName}`;
        const native = reduced >= 2n && reduced <= N - 2n && expectedOpenSsl.has(exponentName);
        assert.equal(computedByOpenSsl(reduced, toBigInt(exponent)), native, label);
        const result = modPow(base, exponent);
        assert.equal(result.length, 512, label);
        assert.equal(toBigInt(result), referencePow(base, toBigInt(exponent)), label);
      }
    }
  });

  test('a result with leading zero bytes comes back padded to 512 bytes', () => {
    for (let run = 0; run < 10_000; run++) {
      const exponent = randomBytes(32);
      const result = modPow(5n, exponent);
      if (result[0] !== 0) continue;
      assert.equal(result.length, 512);
      assert.equal(toBigInt(result), referencePow(5n, toBigInt(exponent)));
      return;
    }
    assert.fail('no result below 2^4088 in 10,000 tries');
  });

  test('OpenSSL does the work: less than half the CPU of BigInt (about a sixth on an idle machine)', () => {
    const cases = Array.from({ length: 12 }, () => ({ base: toBigInt(randomBytes(511)), exponent: randomBytes(32) }));
    const cpu = (run: () => void) => {
      const before = process.cpuUsage();
      run();
      const used = process.cpuUsage(before);
      return used.user + used.system;
    };
    const native = cpu(() => cases.forEach(({ base, exponent }) => modPow(base, exponent)));
    const bigint = cpu(() => cases.forEach(({ base, exponent }) => referencePow(base, toBigInt(exponent))));
    assert.ok(native < bigint / 2, `OpenSSL ${native} µs, BigInt ${bigint} µs`);
  });
});
