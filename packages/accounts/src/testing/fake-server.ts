// For tests only: an Ente-compatible API server in msw handlers, enough for the sign-in flows
// (docs/protocol.md#endpoints): e-mail codes, verification answers, SRP setup and login with real SRP
// arithmetic, sealed tokens, two-factor verify / recover / remove (TOTP and passkey; a passkey check itself is `passkeyVerified`),
// session validity. Accounts are made
// with small Argon2id parameters (ops 1, 8 KiB) so that a login derives in no time; the e-mail code is
// always 123456 and the TOTP code 654321. Every request is recorded with its body and headers.
import { http, HttpResponse, type JsonBodyType } from 'msw';

import {
  bytesOf,
  createSrpServerB64,
  deriveKeyB64,
  encryptBoxB64,
  fromB64Url,
  generateKeyAttributes,
  generateSrpSetupAttributes,
  randomBytes,
  sealBoxB64,
  toB64,
  toB64Url,
  verifySrpClientProofB64,
  type GeneratedKeys,
  type KeyAttributesB64,
} from '@ente/crypto';

export const apiOrigin = 'https://api.ente.com';
export const emailCode = '123456';
export const totpCode = '654321';
/** A two-factor secret (base32, also valid base64: docs/protocol.md#two-factor). */
export const totpSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
/** The passkey recovery secret: b64 of 32 bytes (docs/protocol.md#passkeys). */
export const passkeyRecoverySecret = 'cGFzc2tleSByZWNvdmVyeSBzZWNyZXQgb2YgMzIgYnk=';
/** The small Argon2id parameters of test accounts (allowed by deriveKEK's bounds). */
export const smallKdf = { opsLimit: 1, memLimit: 8192 };

export interface FakeAccount {
  id: number;
  email: string;
  password?: string;
  source?: string;
  keys?: GeneratedKeys;
  keyAttributes?: KeyAttributesB64;
  srp?: { srpUserID: string; srpSalt: string; srpVerifier: string };
  /** TOTP on: the secret encrypted under the recovery key. */
  twoFactor?: { encryptedSecret: string; secretDecryptionNonce: string };
  /** Answer the TOTP session as `twoFactorSessionIDV2` only (museum, with passkeys and TOTP). */
  twoFactorV2?: boolean;
  /** Answer a `passkeySessionID`; passkey recovery configured (the secret under the recovery key). */
  passkey?: boolean;
  passkeyRecovery?: { encryptedSecret: string; secretDecryptionNonce: string };
  emailMFA?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  clientPackage: string | null;
  authToken: string | null;
}

/** Keys for `password` with the small test parameters (and an SRP verifier from their KEK). */
export async function makeKeys(password: string) {
  const keys = await generateKeyAttributes(password, async (typed) => {
    const salt = toB64(await randomBytes(16));
    return { key: await deriveKeyB64(typed, salt, smallKdf.opsLimit, smallKdf.memLimit), salt, ...smallKdf };
  });
  const srpSetupAttributes = await generateSrpSetupAttributes(keys.kek);
  return { ...keys, srpSetupAttributes };
}

export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  readonly accounts = new Map<string, FakeAccount>();
  /** Tampers with the next SRP M2 the server sends (an impostor). */
  tamperM2 = false;
  private nextID = 1;
  private readonly tokens = new Map<string, FakeAccount>();
  private readonly twoFactorSessions = new Map<string, FakeAccount>();
  private readonly passkeySessions = new Map<string, FakeAccount>();
  private readonly srpSessions = new Map<
    string,
    { account: FakeAccount; serverSecret: string; srpA: string; verifier: string }
  >();
  private readonly srpSetups = new Map<
    string,
    { account: FakeAccount; serverSecret: string; srpA: string; setup: NonNullable<FakeAccount['srp']> }
  >();

  readonly handlers = [
    this.route('post', '/users/ott', (body) => this.sendOtt(body)),
    this.route('post', '/users/verify-email', (body) => this.verifyEmail(body)),
    this.route('get', '/users/srp/attributes', (_, query) => this.srpAttributes(query.email ?? '')),
    this.route('post', '/users/srp/create-session', (body) => this.createSession(body)),
    this.route('post', '/users/srp/verify-session', (body) => this.verifySession(body)),
    this.route('put', '/users/attributes', (body, _, account) => this.putAttributes(body, account), true),
    this.route('post', '/users/srp/setup', (body, _, account) => this.srpSetup(body, account), true),
    this.route('post', '/users/srp/complete', (body, _, account) => this.srpComplete(body, account), true),
    this.route('post', '/users/two-factor/verify', (body) => this.verifyTwoFactor(body)),
    this.route('get', '/users/two-factor/recover', (_, query) => this.twoFactorRecover(query)),
    this.route('post', '/users/two-factor/remove', (body) => this.removeTwoFactor(body)),
    this.route('get', '/users/session-validity/v2', (_, __, account) => this.sessionValidity(account), true),
  ];

  /** A complete account (keys, SRP unless `srp: false`) with the small Argon2id parameters. */
  async addAccount(
    email: string,
    password: string,
    options: Partial<Pick<FakeAccount, 'twoFactorV2' | 'passkey' | 'emailMFA'>> & {
      srp?: boolean;
      twoFactor?: boolean;
    } = {},
  ): Promise<FakeAccount & { keys: GeneratedKeys }> {
    const keys = await makeKeys(password);
    const account: FakeAccount & { keys: GeneratedKeys } = {
      id: this.nextID++,
      email,
      password,
      keys,
      keyAttributes: keys.keyAttributes,
      ...(options.twoFactorV2 && { twoFactorV2: true }),
      ...(options.passkey && { passkey: true }),
      ...(options.emailMFA && { emailMFA: true }),
    };
    if (options.srp !== false) {
      const { srpUserID, srpSalt, srpVerifier } = keys.srpSetupAttributes;
      account.srp = { srpUserID, srpSalt, srpVerifier };
    }
    if (options.passkey) {
      const box = await encryptBoxB64(bytesOf(passkeyRecoverySecret), keys.recoveryKey);
      account.passkeyRecovery = { encryptedSecret: box.encryptedData, secretDecryptionNonce: box.nonce };
    }
    if (options.twoFactor) {
      const box = await encryptBoxB64(bytesOf(totpSecret), keys.recoveryKey);
      account.twoFactor = { encryptedSecret: box.encryptedData, secretDecryptionNonce: box.nonce };
    }
    this.accounts.set(email, account);
    return account;
  }

  /**
   * What the accounts app hands back after a passkey check of `passkeySessionID`: the answer of
   * `POST /users/two-factor/passkeys/finish`, a new token sealed to the account's public key.
   */
  async passkeyVerified(passkeySessionID: string) {
    const account = this.passkeySessions.get(passkeySessionID);
    if (!account?.keyAttributes) throw new Error('no such passkey session');
    return { id: account.id, ...(await this.tokenFields(account)) } as {
      id: number;
      keyAttributes: KeyAttributesB64;
      encryptedToken: string;
    };
  }

  /** An account whose sign-up stopped after the e-mail check (no key attributes). */
  addAccountWithoutKeys(email: string): FakeAccount {
    const account: FakeAccount = { id: this.nextID++, email };
    this.accounts.set(email, account);
    return account;
  }

  /** The requests to `path` (method and path only). */
  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method.toUpperCase() && request.path === path);
  }

  private route(
    method: 'get' | 'post' | 'put',
    path: string,
    answer: (
      body: Record<string, unknown>,
      query: Record<string, string>,
      account: FakeAccount,
    ) => Promise<Response> | Response,
    authenticated = false,
  ) {
    return http[method](`${apiOrigin}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const query = Object.fromEntries(url.searchParams);
      const authToken = request.headers.get('X-Auth-Token');
      this.requests.push({
        method: request.method,
        path,
        query,
        body: text ? body : undefined,
        clientPackage: request.headers.get('X-Client-Package'),
        authToken,
      });
      const account = authToken ? this.tokens.get(authToken) : undefined;
      if (authenticated && !account) return json({ error: authToken ? 'invalid token' : 'missing token' }, 401);
      return answer(body, query, account as FakeAccount);
    });
  }

  private sendOtt(body: Record<string, unknown>): Response {
    const account = this.accounts.get(String(body.email));
    if (body.purpose === 'signup' && account?.keyAttributes) return typed('USER_ALREADY_REGISTERED', 409);
    if (body.purpose === 'login' && !account) return typed('USER_NOT_REGISTERED', 404);
    if (body.purpose === 'login' && !account?.keyAttributes) return typed('USER_SIGNUP_INCOMPLETE', 404);
    return new HttpResponse(null, { status: 200 });
  }

  private async verifyEmail(body: Record<string, unknown>): Promise<Response> {
    if (body.ott !== emailCode) return json({}, 401);
    const email = String(body.email);
    let account = this.accounts.get(email);
    if (!account) {
      account = { id: this.nextID++, email, ...(typeof body.source === 'string' && { source: body.source }) };
      this.accounts.set(email, account);
    }
    return json(await this.verificationAnswer(account));
  }

  private async verificationAnswer(account: FakeAccount) {
    const answer: Record<string, unknown> = {
      id: account.id,
      passkeySessionID: '',
      accountsUrl: account.passkey ? 'https://accounts.ente.com' : '',
      twoFactorSessionID: '',
      twoFactorSessionIDV2: '',
    };
    if (account.passkey) {
      const sessionID = toB64Url(await randomBytes(32));
      this.passkeySessions.set(sessionID, account);
      answer.passkeySessionID = sessionID;
    }
    if (account.twoFactor) {
      const sessionID = toB64Url(await randomBytes(32));
      this.twoFactorSessions.set(sessionID, account);
      answer[account.twoFactorV2 ? 'twoFactorSessionIDV2' : 'twoFactorSessionID'] = sessionID;
    }
    if (account.twoFactor || account.passkey) return answer;
    return { ...answer, ...(await this.tokenFields(account)) };
  }

  /** A new token: plain while the account has no keys, else sealed to its public key with the attributes. */
  private async tokenFields(account: FakeAccount) {
    const token = toB64Url(await randomBytes(32));
    this.tokens.set(token, account);
    if (!account.keyAttributes) return { token };
    const encryptedToken = await sealBoxB64(fromB64Url(token), account.keyAttributes.publicKey);
    return { keyAttributes: account.keyAttributes, encryptedToken };
  }

  private srpAttributes(email: string): Response {
    const account = this.accounts.get(email);
    if (!account) return json({}, 404);
    if (!account.srp || !account.keyAttributes) return typed('NOT_FOUND', 404);
    const { srpUserID, srpSalt } = account.srp;
    const { kekSalt, opsLimit, memLimit } = account.keyAttributes;
    return json({
      attributes: { srpUserID, srpSalt, kekSalt, opsLimit, memLimit, isEmailMFAEnabled: !!account.emailMFA },
    });
  }

  private async createSession(body: Record<string, unknown>): Promise<Response> {
    const account = [...this.accounts.values()].find((candidate) => candidate.srp?.srpUserID === body.srpUserID);
    if (!account?.srp) return json({}, 401);
    if (account.emailMFA) return typed('EMAIL_MFA_ENABLED', 409);
    const { serverSecret, srpB } = await createSrpServerB64(account.srp.srpVerifier);
    const sessionID = globalThis.crypto.randomUUID();
    this.srpSessions.set(sessionID, {
      account,
      serverSecret,
      srpA: String(body.srpA),
      verifier: account.srp.srpVerifier,
    });
    return json({ sessionID, srpB });
  }

  private async verifySession(body: Record<string, unknown>): Promise<Response> {
    const session = this.srpSessions.get(String(body.sessionID));
    if (!session) return json({}, 401);
    const srpM2 = verifySrpClientProofB64({
      verifier: session.verifier,
      serverSecret: session.serverSecret,
      srpA: session.srpA,
      srpM1: String(body.srpM1),
    });
    if (srpM2 === null) return json({}, 401);
    this.srpSessions.delete(String(body.sessionID));
    return json({ ...(await this.verificationAnswer(session.account)), srpM2: this.maybeTampered(srpM2) });
  }

  private putAttributes(body: Record<string, unknown>, account: FakeAccount): Response {
    if (account.keyAttributes) return json({}, 403);
    account.keyAttributes = body.keyAttributes as KeyAttributesB64;
    return new HttpResponse(null, { status: 200 });
  }

  private async srpSetup(body: Record<string, unknown>, account: FakeAccount): Promise<Response> {
    const setup = {
      srpUserID: String(body.srpUserID),
      srpSalt: String(body.srpSalt),
      srpVerifier: String(body.srpVerifier),
    };
    const { serverSecret, srpB } = await createSrpServerB64(setup.srpVerifier);
    const setupID = globalThis.crypto.randomUUID();
    this.srpSetups.set(setupID, { account, serverSecret, srpA: String(body.srpA), setup });
    return json({ setupID, srpB });
  }

  private srpComplete(body: Record<string, unknown>, account: FakeAccount): Response {
    const setupID = String(body.setupID);
    const pending = this.srpSetups.get(setupID);
    if (pending?.account !== account) return typed('NOT_FOUND', 404);
    if (account.srp) return typed('BAD_REQUEST', 400);
    const srpM2 = verifySrpClientProofB64({
      verifier: pending.setup.srpVerifier,
      serverSecret: pending.serverSecret,
      srpA: pending.srpA,
      srpM1: String(body.srpM1),
    });
    if (srpM2 === null) return json({}, 401);
    account.srp = pending.setup;
    this.srpSetups.delete(setupID);
    return json({ setupID, srpM2: this.maybeTampered(srpM2) });
  }

  private async verifyTwoFactor(body: Record<string, unknown>): Promise<Response> {
    const account = this.twoFactorSessions.get(String(body.sessionID));
    if (!account) return json({}, 404);
    if (body.code !== totpCode) return json({}, 401);
    return json({ id: account.id, ...(await this.tokenFields(account)) });
  }

  private twoFactorRecover(query: Record<string, string>): Response {
    if (query.twoFactorType === 'passkey') {
      const account = this.passkeySessions.get(query.sessionID ?? '');
      if (!account) return json({}, 404);
      if (!account.passkeyRecovery) return typed('BAD_REQUEST', 400);
      return json(account.passkeyRecovery);
    }
    const account = this.twoFactorSessions.get(query.sessionID ?? '');
    if (!account?.twoFactor) return json({}, 404);
    return json(account.twoFactor);
  }

  private async removeTwoFactor(body: Record<string, unknown>): Promise<Response> {
    if (body.twoFactorType === 'passkey') {
      // The passkeys stay; the person is signed in.
      const account = this.passkeySessions.get(String(body.sessionID));
      if (!account) return json({}, 404);
      if (!account.passkeyRecovery || body.secret !== passkeyRecoverySecret) return json({}, 403);
      return json({ id: account.id, ...(await this.tokenFields(account)) });
    }
    const account = this.twoFactorSessions.get(String(body.sessionID));
    if (!account?.twoFactor) return json({}, 404);
    if (body.secret !== totpSecret) return json({}, 403);
    delete account.twoFactor;
    return json({ id: account.id, ...(await this.tokenFields(account)) });
  }

  private sessionValidity(account: FakeAccount): Response {
    return json(
      account.keyAttributes ? { hasSetKeys: true, keyAttributes: account.keyAttributes } : { hasSetKeys: false },
    );
  }

  private maybeTampered(srpM2: string): string {
    if (!this.tamperM2) return srpM2;
    this.tamperM2 = false;
    const bytes = bytesOf(srpM2);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    return toB64(bytes);
  }
}

function json(body: JsonBodyType, status = 200): Response {
  return HttpResponse.json(body, { status });
}

function typed(code: string, status: number): Response {
  return json({ code, message: '' }, status);
}
