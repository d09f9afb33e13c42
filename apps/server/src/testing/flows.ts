// Client-side flows of protocol §7 built on @ente/crypto, for the integration tests: signup (OTT,
// key attributes, SRP setup) and SRP login. The password KEK is the protocol's §12 vector (Argon2id of
// "password" at the signup parameters), so the tests skip seconds of Argon2id per user while the
// server still sees genuine 256 MiB × 16 attributes.
import {
  createSrpClient,
  decryptBoxB64,
  deriveKeyB64,
  deriveLoginSubKeyB64,
  generateKeyAttributes,
  generateSrpSetupAttributes,
  openSealedBoxBytes,
  toB64Url,
  type GeneratedKeys,
  type SrpIdentity,
  type SrpSetupAttributes,
} from '@ente/crypto';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ApiClient } from './client.ts';
import type { CapturingMailer } from './server.ts';

export const vectorKek = {
  key: 'o2F5q2WE3xx6dyxyBM0KOKyQZ8XVPhOOemaTDzMuLvg=',
  salt: 'AAECAwQFBgcICQoLDA0ODw==',
  opsLimit: 16,
  memLimit: 268435456,
};

/** The KEK for attributes from the server: the vector when they match it, real Argon2id otherwise. */
export async function deriveKek(password: string, kekSalt: string, opsLimit: number, memLimit: number) {
  const isVector =
    password === 'password' &&
    kekSalt === vectorKek.salt &&
    opsLimit === vectorKek.opsLimit &&
    memLimit === vectorKek.memLimit;
  return isVector ? vectorKek.key : deriveKeyB64(password, kekSalt, opsLimit, memLimit);
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.org`;
}

export interface Account {
  email: string;
  userID: number;
  token: string;
  keys: GeneratedKeys;
  /** Undefined when the account was made with `{srp: false}`. */
  srp: SrpSetupAttributes;
}

export interface SignUpOptions {
  email?: string;
  /** Skip the SRP setup (seconds of bignum work) when a test doesn't log in with a password. */
  srp?: boolean;
}

/** Signup as the web does it (protocol §7.1 steps 2–5); the api's token is set to the new token. */
export async function signUp(api: ApiClient, mail: CapturingMailer, options: SignUpOptions = {}): Promise<Account> {
  const email = options.email ?? uniqueEmail();
  const ott = await api.post('/users/ott', { email, purpose: 'signup' }, { token: null });
  assert.equal(ott.status, 200, ott.text);
  const verified = await api.post('/users/verify-email', { email, ott: mail.lastCode(email) }, { token: null });
  assert.equal(verified.status, 200, verified.text);
  const token: string = verified.body.token;
  assert.ok(token, 'a new account gets a plain token');
  const keys = await generateKeyAttributes('password', async () => ({ ...vectorKek }));
  const put = await api.put('/users/attributes', { keyAttributes: keys.keyAttributes }, { token });
  assert.equal(put.status, 200, put.text);
  const srp =
    options.srp === false ? (undefined as unknown as SrpSetupAttributes) : await setUpSrp(api, token, keys.kek);
  api.token = token;
  return { email, userID: verified.body.id, token, keys, srp };
}

/** SRP setup + complete (protocol §5.3) for the KEK; returns the registered attributes. */
export async function setUpSrp(api: ApiClient, token: string, kek: string): Promise<SrpSetupAttributes> {
  const srp = await generateSrpSetupAttributes(kek);
  const client = await createSrpClient(srp);
  const setup = await api.post(
    '/users/srp/setup',
    { srpUserID: srp.srpUserID, srpSalt: srp.srpSalt, srpVerifier: srp.srpVerifier, srpA: client.srpA },
    { token },
  );
  assert.equal(setup.status, 200, setup.text);
  const complete = await api.post(
    '/users/srp/complete',
    { setupID: setup.body.setupID, srpM1: client.computeM1B64(setup.body.srpB) },
    { token },
  );
  assert.equal(complete.status, 200, complete.text);
  assert.ok(client.verifyM2(complete.body.srpM2), 'the server proves it knows the verifier');
  return srp;
}

/** SRP login (protocol §5.4): attributes → create-session → verify-session. Returns the last answer. */
export async function srpLogin(api: ApiClient, email: string, password = 'password') {
  const attributes = await api.get('/users/srp/attributes', { query: { email }, token: null });
  assert.equal(attributes.status, 200, attributes.text);
  const { srpUserID, srpSalt, kekSalt, opsLimit, memLimit } = attributes.body.attributes;
  const kek = await deriveKek(password, kekSalt, opsLimit, memLimit);
  const session = await srpSession(api, { srpUserID, srpSalt, loginSubKey: await deriveLoginSubKeyB64(kek) });
  return { ...session, kek, srpUserID: srpUserID as string };
}

/**
 * The two SRP login requests for a known identity: create-session on `api`, verify-session on
 * `verifyApi` (another server process in the scale-out test). Returns the verify-session answer.
 */
export async function srpSession(api: ApiClient, identity: SrpIdentity, verifyApi: ApiClient = api) {
  const client = await createSrpClient(identity);
  const { srpUserID } = identity;
  const session = await api.post('/users/srp/create-session', { srpUserID, srpA: client.srpA }, { token: null });
  assert.equal(session.status, 200, session.text);
  const srpM1 = client.computeM1B64(session.body.srpB);
  const sessionID: string = session.body.sessionID;
  const verified = await verifyApi.post('/users/srp/verify-session', { sessionID, srpUserID, srpM1 }, { token: null });
  return { verified, client, sessionID, srpM1 };
}

/** Login by e-mail code (protocol §7.2 step 2); returns the verify-email answer. */
export async function emailLogin(api: ApiClient, mail: CapturingMailer, email: string) {
  const sent = await api.post('/users/ott', { email, purpose: 'login' }, { token: null });
  assert.equal(sent.status, 200, sent.text);
  return api.post('/users/verify-email', { email, ott: mail.lastCode(email) }, { token: null });
}

/** Opens an encryptedToken with the account's keys (protocol §4 "Client decryption"). */
export async function openToken(encryptedToken: string, keys: GeneratedKeys): Promise<string> {
  const secretKey = await decryptBoxB64(
    { encryptedData: keys.keyAttributes.encryptedSecretKey, nonce: keys.keyAttributes.secretKeyDecryptionNonce },
    keys.masterKey,
  );
  return toB64Url(await openSealedBoxBytes(encryptedToken, keys.keyAttributes.publicKey, secretKey));
}
