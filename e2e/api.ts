// Accounts made over HTTP from Node, for the browser tests that are not about signing up: the flows of
// docs/protocol.md#sign-up and #srp-login done with @ente/crypto directly (the same steps as the
// sign-in pages, without a browser), and a way to hand such a session to a browser page.
//
// The password KEK: an account made with the password "password" gets the Argon2id test vector
// (docs/protocol.md#test-vectors: "password" at 256 MiB × 16 with the salt 0x00..0x0f), so making it costs
// no Argon2id here while the server and the browser see genuine sensitive attributes; a browser that
// signs in to it derives the KEK for real. Any other password is derived for real (about 5 s in Node).
import { randomBytes } from 'node:crypto';

import type { Page } from '@playwright/test';

import {
  createSrpClient,
  deriveLoginSubKeyB64,
  deriveSensitiveKeyB64,
  generateKeyAttributes,
  generateSrpSetupAttributes,
  type DerivedKeyB64,
  type SrpSetupAttributes,
} from '@ente/crypto';
import { cryptoAPI, type KeyAttributesB64 } from '@ente/crypto/api.ts';
import type {
  EmailAuthorizationResponse,
  SrpAttributesResponse,
  SrpCompleteResponse,
  SrpCreateSessionResponse,
  SrpSetupResponse,
  TwoFactorSetupResponse,
} from '@ente/protocol';

import { Inbox } from './mail.ts';
import { appUrl, serverUrl, writeBrowserStorage, type AppName } from './stack.ts';
import { Authenticator } from './totp.ts';

/** The password whose KEK is the published vector (see above). */
export const vectorPassword = 'password';
const vectorKek: DerivedKeyB64 = {
  key: 'o2F5q2WE3xx6dyxyBM0KOKyQZ8XVPhOOemaTDzMuLvg=',
  salt: 'AAECAwQFBgcICQoLDA0ODw==',
  opsLimit: 16,
  memLimit: 268435456,
};

/** X-Client-Package of each app (packages/shared/src/app-name.ts); the server scopes codes and tokens by it. */
export const clientPackage = (app: AppName) => `io.ente.${app}.web`;

export function uniqueEmail(label = 'e2e'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.org`;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    what: string,
  ) {
    super(`${what} answered ${String(status)}: ${text}`);
  }
}

interface RequestOptions {
  body?: unknown;
  token?: string;
  query?: Record<string, string>;
  /** The User-Agent the server records with a new session (Node's own by default). */
  userAgent?: string;
}

/** One request to the local server as `app` would send it; non-2xx throws HttpError. */
export async function api<T = unknown>(
  app: AppName,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  { body, token, query, userAgent }: RequestOptions = {},
): Promise<T> {
  const url = new URL(path, serverUrl);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { 'X-Client-Package': clientPackage(app) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['X-Auth-Token'] = token;
  if (userAgent) headers['User-Agent'] = userAgent;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new HttpError(response.status, text, `${method} ${path}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A complete account: everything its owner's browser would know. */
export interface ApiAccount {
  email: string;
  password: string;
  userID: number;
  /** As the server keeps them (the sensitive KEK's parameters). */
  keyAttributes: KeyAttributesB64;
  masterKey: string;
  recoveryKey: string;
  /** The recovery key as the 24 words a user types. */
  recoveryWords: string;
  kek: string;
  srp: SrpSetupAttributes;
}

/**
 * Signs an account up over HTTP (docs/protocol.md#sign-up): code from the server log, key attributes,
 * SRP setup. The sign-up token (a session of `app`) is returned with it.
 */
export async function createAccount(
  options: { app?: AppName; email?: string; password?: string } = {},
): Promise<{ account: ApiAccount; token: string }> {
  const app = options.app ?? 'auth';
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? vectorPassword;
  const inbox = await Inbox.open(email);
  await api(app, 'POST', '/users/ott', { body: { email, purpose: 'signup' } });
  const verified = await api<EmailAuthorizationResponse>(app, 'POST', '/users/verify-email', {
    body: { email, ott: await inbox.nextCode() },
  });
  const token = verified.token;
  if (!token) throw new Error('a new account gets a plain token');
  const derive = password === vectorPassword ? () => Promise.resolve({ ...vectorKek }) : deriveSensitiveKeyB64;
  const keys = await generateKeyAttributes(password, derive);
  await api(app, 'PUT', '/users/attributes', { body: { keyAttributes: keys.keyAttributes }, token });
  const srp = await generateSrpSetupAttributes(keys.kek);
  const client = await createSrpClient(srp);
  const setup = await api<SrpSetupResponse>(app, 'POST', '/users/srp/setup', {
    body: { srpUserID: srp.srpUserID, srpSalt: srp.srpSalt, srpVerifier: srp.srpVerifier, srpA: client.srpA },
    token,
  });
  const complete = await api<SrpCompleteResponse>(app, 'POST', '/users/srp/complete', {
    body: { setupID: setup.setupID, srpM1: client.computeM1B64(setup.srpB) },
    token,
  });
  if (!client.verifyM2(complete.srpM2)) throw new Error('the server did not prove it knows the verifier');
  const account: ApiAccount = {
    email,
    password,
    userID: verified.id,
    keyAttributes: keys.keyAttributes,
    masterKey: keys.masterKey,
    recoveryKey: keys.recoveryKey,
    recoveryWords: await cryptoAPI.recoveryKeyToWords(keys.recoveryKey),
    kek: keys.kek,
    srp,
  };
  return { account, token };
}

/**
 * The SRP login requests (docs/protocol.md#srp-login) up to the verification answer, which carries the
 * sealed token, or the two-factor session when the account has two-factor on.
 */
export async function srpLogin(
  account: ApiAccount,
  app: AppName,
  userAgent?: string,
): Promise<EmailAuthorizationResponse> {
  const { attributes } = await api<SrpAttributesResponse>(app, 'GET', '/users/srp/attributes', {
    query: { email: account.email },
  });
  const client = await createSrpClient({
    srpUserID: attributes.srpUserID,
    srpSalt: attributes.srpSalt,
    loginSubKey: await deriveLoginSubKeyB64(account.kek),
  });
  const session = await api<SrpCreateSessionResponse>(app, 'POST', '/users/srp/create-session', {
    body: { srpUserID: attributes.srpUserID, srpA: client.srpA },
  });
  return api<EmailAuthorizationResponse>(app, 'POST', '/users/srp/verify-session', {
    body: { sessionID: session.sessionID, srpUserID: attributes.srpUserID, srpM1: client.computeM1B64(session.srpB) },
    userAgent,
  });
}

/**
 * A new session of `app` by SRP login, with the TOTP second factor when the account has one, recorded
 * by the server with `userAgent` when given. Returns the opened token.
 */
export async function passwordLogin(
  account: ApiAccount,
  app: AppName,
  { authenticator, userAgent }: { authenticator?: Authenticator; userAgent?: string } = {},
): Promise<string> {
  let answer: { encryptedToken?: string; twoFactorSessionID?: string } = await srpLogin(account, app, userAgent);
  if (answer.twoFactorSessionID) {
    if (!authenticator) throw new Error(`${account.email} has two-factor on: pass its authenticator`);
    answer = await api<{ encryptedToken: string }>(app, 'POST', '/users/two-factor/verify', {
      body: { sessionID: answer.twoFactorSessionID, code: await authenticator.nextCode() },
      userAgent,
    });
  }
  if (!answer.encryptedToken) throw new Error('the login answer has no encryptedToken');
  return cryptoAPI.openToken(answer.encryptedToken, account.keyAttributes, account.masterKey);
}

/** Turns two-factor on over HTTP (docs/protocol.md#two-factor); returns the authenticator of its secret. */
export async function enableTwoFactor(account: ApiAccount, app: AppName, token: string): Promise<Authenticator> {
  const { secretCode } = await api<TwoFactorSetupResponse>(app, 'POST', '/users/two-factor/setup', { token });
  const authenticator = new Authenticator(secretCode);
  const box = await cryptoAPI.encryptTwoFactorSecret(secretCode, account.recoveryKey);
  await api(app, 'POST', '/users/two-factor/enable', {
    body: {
      code: await authenticator.nextCode(),
      encryptedTwoFactorSecret: box.encryptedData,
      twoFactorSecretDecryptionNonce: box.nonce,
    },
    token,
  });
  return authenticator;
}

/**
 * Sets up passkey recovery over HTTP as the apps' settings do before a first passkey
 * (docs/protocol.md#passkeys): a random secret, kept by the server and, encrypted under the recovery
 * key, by the account.
 */
export async function configurePasskeyRecovery(account: ApiAccount, token: string): Promise<void> {
  const secret = await cryptoAPI.generateKey();
  const box = await cryptoAPI.encryptBox(secret, account.recoveryKey);
  await api('auth', 'POST', '/users/two-factor/passkeys/configure-recovery', {
    body: { secret, userSecretCipher: box.encryptedData, userSecretNonce: box.nonce },
    token,
  });
}

/**
 * Puts a session made over HTTP into a browser tab as a sign-in at `app` leaves it
 * (docs/protocol.md#browser-storage): the user record and its kv mirror, the local (interactive) key
 * attributes, the SRP attributes, and the masterKey stashed in this tab's session storage. Then opens
 * `path` (default: the app's home).
 */
export async function signInBrowser(
  page: Page,
  app: AppName,
  account: ApiAccount,
  token: string,
  path = '',
): Promise<void> {
  const [{ attributes: srpAttributes }, keyAttributes, stash] = await Promise.all([
    api<SrpAttributesResponse>(app, 'GET', '/users/srp/attributes', { query: { email: account.email } }),
    cryptoAPI.makeInteractiveKeyAttributes(account.password, account.masterKey, account.keyAttributes),
    cryptoAPI.stashKey(account.masterKey),
  ]);
  await writeBrowserStorage(page, app, {
    local: {
      user: { id: account.userID, email: account.email, token },
      keyAttributes,
      srpAttributes,
    },
    kv: { token, userID: String(account.userID) },
    session: { encryptionKey: stash },
  });
  if (path) await page.goto(`${appUrl(app)}${path}`);
}

let sharedAccount: Promise<ApiAccount> | undefined;

/**
 * Signs the tab in at `app` for real with an account shared by the tests of this worker (made once),
 * for tests that only need someone signed in: each call is a new session of that app.
 */
export async function signInSomeone(page: Page, app: AppName): Promise<ApiAccount> {
  sharedAccount ??= createAccount().then(({ account }) => account);
  const account = await sharedAccount;
  await signInBrowser(page, app, account, await passwordLogin(account, app));
  return account;
}
