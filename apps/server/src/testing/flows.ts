// Client-side flows (docs/protocol.md#client-flows) built on @ente/crypto, for the integration tests:
// signup (OTT, key attributes, SRP setup) and SRP login. The password KEK is the Argon2id test vector
// (docs/protocol.md#test-vectors: "password" at the signup parameters), so the tests skip seconds of
// Argon2id per user while the server still sees genuine 256 MiB × 16 attributes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';

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
import type {
  EmailAuthorizationResponse,
  SrpAttributesResponse,
  SrpCompleteResponse,
  SrpCreateSessionResponse,
  SrpSetupResponse,
} from '@ente/protocol';

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
}

export interface SrpAccount extends Account {
  srp: SrpSetupAttributes;
}

/**
 * The first half of signup (docs/protocol.md#sign-up): the e-mail code verified, no key attributes
 * yet. The token comes in plain text.
 */
export async function startSignUp(api: ApiClient, mail: CapturingMailer) {
  const email = uniqueEmail();
  const ott = await api.post('/users/ott', { email, purpose: 'signup' }, { token: null });
  assert.equal(ott.status, 200, ott.text);
  const verified = await api.post<EmailAuthorizationResponse>(
    '/users/verify-email',
    { email, ott: mail.lastCode(email) },
    { token: null },
  );
  assert.equal(verified.status, 200, verified.text);
  const { token } = verified.body;
  assert.ok(token, 'a new account gets a plain token');
  return { email, userID: verified.body.id, token };
}

/**
 * Signup as the web does it (docs/protocol.md#sign-up); the api's token is set to the new token.
 * `srp: false` skips the SRP setup (bignum work) for tests that don't log in with a password.
 */
export async function signUp(api: ApiClient, mail: CapturingMailer, options: { srp: false }): Promise<Account>;
export async function signUp(api: ApiClient, mail: CapturingMailer, options?: { srp?: true }): Promise<SrpAccount>;
export async function signUp(
  api: ApiClient,
  mail: CapturingMailer,
  options: { srp?: boolean } = {},
): Promise<Account | SrpAccount> {
  const { email, userID, token } = await startSignUp(api, mail);
  const keys = await generateKeyAttributes('password', () => Promise.resolve({ ...vectorKek }));
  const put = await api.put('/users/attributes', { keyAttributes: keys.keyAttributes }, { token });
  assert.equal(put.status, 200, put.text);
  api.token = token;
  const account = { email, userID, token, keys };
  return options.srp === false ? account : { ...account, srp: await setUpSrp(api, token, keys.kek) };
}

/** SRP setup + complete (docs/protocol.md#srp-setup) for the KEK; returns the registered attributes. */
export async function setUpSrp(api: ApiClient, token: string, kek: string): Promise<SrpSetupAttributes> {
  const srp = await generateSrpSetupAttributes(kek);
  const client = await createSrpClient(srp);
  const setup = await api.post<SrpSetupResponse>(
    '/users/srp/setup',
    { srpUserID: srp.srpUserID, srpSalt: srp.srpSalt, srpVerifier: srp.srpVerifier, srpA: client.srpA },
    { token },
  );
  assert.equal(setup.status, 200, setup.text);
  const complete = await api.post<SrpCompleteResponse>(
    '/users/srp/complete',
    { setupID: setup.body.setupID, srpM1: client.computeM1B64(setup.body.srpB) },
    { token },
  );
  assert.equal(complete.status, 200, complete.text);
  assert.ok(client.verifyM2(complete.body.srpM2), 'the server proves it knows the verifier');
  return srp;
}

/** SRP login (docs/protocol.md#srp-login): attributes → create-session → verify-session; the last answer. */
export async function srpLogin(api: ApiClient, email: string, password = 'password') {
  const attributes = await api.get<SrpAttributesResponse>('/users/srp/attributes', { query: { email }, token: null });
  assert.equal(attributes.status, 200, attributes.text);
  const { srpUserID, srpSalt, kekSalt, opsLimit, memLimit } = attributes.body.attributes;
  const kek = await deriveKek(password, kekSalt, opsLimit, memLimit);
  const session = await srpSession(api, { srpUserID, srpSalt, loginSubKey: await deriveLoginSubKeyB64(kek) });
  return { ...session, kek, srpUserID };
}

/**
 * The two SRP login requests for a known identity: create-session on `api`, verify-session on
 * `verifyApi` (another server process in the scale-out test). Returns the verify-session answer.
 */
export async function srpSession(api: ApiClient, identity: SrpIdentity, verifyApi: ApiClient = api) {
  const client = await createSrpClient(identity);
  const { srpUserID } = identity;
  const session = await api.post<SrpCreateSessionResponse>(
    '/users/srp/create-session',
    { srpUserID, srpA: client.srpA },
    { token: null },
  );
  assert.equal(session.status, 200, session.text);
  const srpM1 = client.computeM1B64(session.body.srpB);
  const { sessionID } = session.body;
  const verified = await verifyApi.post<EmailAuthorizationResponse>(
    '/users/srp/verify-session',
    { sessionID, srpUserID, srpM1 },
    { token: null },
  );
  return { verified, client, sessionID, srpM1 };
}

/** Login by e-mail code (docs/protocol.md#login); returns the verify-email answer. */
export async function emailLogin(api: ApiClient, mail: CapturingMailer, email: string) {
  const sent = await api.post('/users/ott', { email, purpose: 'login' }, { token: null });
  assert.equal(sent.status, 200, sent.text);
  return api.post<EmailAuthorizationResponse>(
    '/users/verify-email',
    { email, ott: mail.lastCode(email) },
    { token: null },
  );
}

/** A new token for the account by e-mail code login, opened. */
export async function emailLoginToken(api: ApiClient, mail: CapturingMailer, account: Account): Promise<string> {
  const login = await emailLogin(api, mail, account.email);
  assert.equal(login.status, 200, login.text);
  return openToken(login.body.encryptedToken, account.keys);
}

/**
 * Opens an encryptedToken with the account's keys (docs/protocol.md#auth-tokens); an answer without
 * one fails the test.
 */
export async function openToken(encryptedToken: string | undefined, keys: GeneratedKeys): Promise<string> {
  assert.ok(encryptedToken, 'the answer carries an encryptedToken');
  const secretKey = await decryptBoxB64(
    { encryptedData: keys.keyAttributes.encryptedSecretKey, nonce: keys.keyAttributes.secretKeyDecryptionNonce },
    keys.masterKey,
  );
  return toB64Url(await openSealedBoxBytes(encryptedToken, keys.keyAttributes.publicKey, secretKey));
}
