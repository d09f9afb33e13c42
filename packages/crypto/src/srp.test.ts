// Our SRP arithmetic against fast-srp-hap (the library it replaced, kept as a test oracle): for random
// identities, secrets and server values, every public value and proof must be byte for byte the same.
import { randomBytes } from 'node:crypto';

import { describe, expect, test } from '@jest/globals';
import { SRP, SrpClient, SrpServer } from 'fast-srp-hap';

import { fromB64, toB64 } from './encoding.ts';
import { computeSrpVerifierB64, createSrpClient, createSrpServerB64, verifySrpClientProofB64 } from './srp.ts';

const params = SRP.params['4096'];

function randomIdentity() {
  return { srpUserID: crypto.randomUUID(), srpSalt: randomBytes(16), loginSubKey: randomBytes(16) };
}

describe('SRP against fast-srp-hap', () => {
  test.each(Array.from({ length: 3 }, (_, run) => run))('random exchange %i', async () => {
    const identity = randomIdentity();
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const userID = Buffer.from(identity.srpUserID);

    const verifier = computeSrpVerifierB64(identity);
    const oracleVerifier = SRP.computeVerifier(params, identity.srpSalt, userID, identity.loginSubKey);
    expect(verifier).toBe(oracleVerifier.toString('base64'));

    const client = await createSrpClient(identity, a);
    const oracleClient = new SrpClient(params, identity.srpSalt, userID, identity.loginSubKey, a, false);
    expect(client.srpA).toBe(oracleClient.computeA().toString('base64'));

    const server = await createSrpServerB64(verifier, b);
    const oracleServer = new SrpServer(params, oracleVerifier, b);
    expect(server.srpB).toBe(oracleServer.computeB().toString('base64'));

    const srpM1 = client.computeM1B64(server.srpB);
    oracleClient.setB(Buffer.from(fromB64(server.srpB)));
    expect(srpM1).toBe(oracleClient.computeM1().toString('base64'));

    const srpM2 = verifySrpClientProofB64({ verifier, serverSecret: server.serverSecret, srpA: client.srpA, srpM1 });
    oracleServer.setA(Buffer.from(fromB64(client.srpA)));
    expect(srpM2).toBe(oracleServer.computeM2().toString('base64'));
    expect(client.verifyM2(srpM2 ?? '')).toBe(true);
  });

  test('a B from another verifier (B − k·g^x may be negative) gives the same M1', async () => {
    for (let run = 0; run < 3; run++) {
      const identity = randomIdentity();
      const a = randomBytes(32);
      const strangerVerifier = computeSrpVerifierB64(randomIdentity());
      const { srpB } = await createSrpServerB64(strangerVerifier);
      const client = await createSrpClient(identity, a);
      const oracleClient = new SrpClient(
        params,
        identity.srpSalt,
        Buffer.from(identity.srpUserID),
        identity.loginSubKey,
        a,
        false,
      );
      oracleClient.setB(Buffer.from(fromB64(srpB)));
      expect(client.computeM1B64(srpB)).toBe(oracleClient.computeM1().toString('base64'));
      expect(client.verifyM2(toB64(randomBytes(32)))).toBe(false);
    }
  });

  test('M2 is refused before M1 was computed', async () => {
    const client = await createSrpClient(randomIdentity());
    expect(client.verifyM2(toB64(new Uint8Array(32)))).toBe(false);
  });
});
