// Property test: malformed JSON, wrong types, huge values, unknown fields and text from all of Unicode (NUL
// and the other C0 and C1 controls, DEL, lone surrogates, astral characters, very long strings, e-mail
// addresses with any of these inside) sent to every route, in every body field, query parameter and path
// parameter, with and without a valid token. No input yields a 5xx, every refusal is JSON in one of the
// shapes of docs/protocol.md#errors, no answer shows the server's insides, and a refused e-mail code
// request never costs a person their code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import fc from 'fast-check';

import { ApiClient } from '../testing/client.ts';
import { emailLoginToken, signUp, uniqueEmail, type Account } from '../testing/flows.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';

/** Every route with the fields its body or query has, so generated input hits the validators. */
const routes: Record<string, string[]> = {
  'GET /ping': [],
  'POST /users/ott': ['email', 'purpose', 'mobile', 'client'],
  'POST /users/verify-email': ['email', 'ott', 'source'],
  'PUT /users/attributes': ['keyAttributes'],
  'PUT /users/recovery-key': ['masterKeyEncryptedWithRecoveryKey', 'masterKeyDecryptionNonce'],
  'POST /users/change-email': ['email', 'ott'],
  'GET /users/session-validity/v2': [],
  'GET /users/details/v2': ['memoryCount'],
  'PUT /users/email-mfa': ['isEnabled'],
  'GET /users/public-key': ['email'],
  'POST /users/logout': [],
  'GET /users/sessions': [],
  'DELETE /users/session': ['token'],
  'GET /users/srp/attributes': ['email'],
  'POST /users/srp/setup': ['srpUserID', 'srpSalt', 'srpVerifier', 'srpA'],
  'POST /users/srp/complete': ['setupID', 'srpM1'],
  'POST /users/srp/update': ['setupID', 'srpM1', 'updatedKeyAttr', 'logOutOtherDevices'],
  'POST /users/srp/create-session': ['srpUserID', 'srpA'],
  'POST /users/srp/verify-session': ['sessionID', 'srpUserID', 'srpM1'],
  'GET /users/two-factor/status': [],
  'POST /users/two-factor/setup': [],
  'POST /users/two-factor/enable': ['code', 'encryptedTwoFactorSecret', 'twoFactorSecretDecryptionNonce'],
  'POST /users/two-factor/verify': ['sessionID', 'code'],
  'GET /users/two-factor/recover': ['sessionID', 'twoFactorType'],
  'POST /users/two-factor/remove': ['sessionID', 'secret', 'twoFactorType'],
  'POST /users/two-factor/disable': [],
  'GET /users/accounts-token': [],
  'GET /passkeys': [],
  'PATCH /passkeys/:passkeyID': ['friendlyName'],
  'DELETE /passkeys/:passkeyID': [],
  'POST /passkeys/registration/begin': [],
  'POST /passkeys/registration/finish': ['friendlyName', 'sessionID', 'id', 'rawId', 'type', 'response'],
  'POST /users/two-factor/passkeys/begin': ['sessionID'],
  'POST /users/two-factor/passkeys/finish': ['sessionID', 'ceremonySessionID', 'clientPackage', 'id', 'response'],
  'GET /users/two-factor/passkeys/get-token': ['sessionID'],
  'GET /users/two-factor/recovery-status': [],
  'POST /users/two-factor/passkeys/configure-recovery': ['secret', 'userSecretCipher', 'userSecretNonce'],
  'GET /authenticator/key': [],
  'POST /authenticator/key': ['encryptedKey', 'header'],
  'POST /authenticator/entity': ['encryptedData', 'header'],
  'PUT /authenticator/entity': ['id', 'encryptedData', 'header', 'ifUpdatedAt'],
  'DELETE /authenticator/entity': ['id', 'ifUpdatedAt'],
  'GET /authenticator/entity/diff': ['sinceTime', 'limit'],
  'GET /user-entity/key': ['type'],
  'POST /user-entity/key': ['type', 'encryptedKey', 'header'],
  'POST /user-entity/entity': ['type', 'encryptedData', 'header', 'id'],
  'PUT /user-entity/entity': ['id', 'type', 'encryptedData', 'header'],
  'DELETE /user-entity/entity': ['id'],
  'GET /user-entity/entity/diff': ['type', 'sinceTime', 'limit'],
  'POST /collections': [
    'encryptedKey',
    'keyDecryptionNonce',
    'encryptedName',
    'nameDecryptionNonce',
    'type',
    'magicMetadata',
    'pubMagicMetadata',
  ],
  'GET /collections/v2': ['sinceTime'],
  'GET /collections/v2/diff': ['collectionID', 'sinceTime'],
  'POST /collections/rename': ['collectionID', 'encryptedName', 'nameDecryptionNonce'],
  'POST /collections/add-files': ['collectionID', 'files'],
  'POST /collections/restore-files': ['collectionID', 'files'],
  'POST /collections/move-files': ['fromCollectionID', 'toCollectionID', 'files'],
  'POST /collections/v3/remove-files': ['collectionID', 'fileIDs'],
  'DELETE /collections/v3/:collectionID': ['keepFiles'],
  'POST /collections/share': ['collectionID', 'email', 'role', 'encryptedKey'],
  'POST /collections/unshare': ['collectionID', 'email'],
  'POST /collections/leave/:collectionID': [],
  'PUT /collections/magic-metadata': ['id', 'magicMetadata'],
  'PUT /collections/public-magic-metadata': ['id', 'magicMetadata'],
  'PUT /collections/sharee-magic-metadata': ['id', 'magicMetadata'],
  'POST /files/upload-url': ['contentLength', 'contentMD5'],
  'POST /files/multipart-upload-url': ['contentLength', 'partLength', 'partMd5s'],
  'POST /files': [
    'collectionID',
    'encryptedKey',
    'keyDecryptionNonce',
    'file',
    'thumbnail',
    'metadata',
    'magicMetadata',
    'pubMagicMetadata',
  ],
  'GET /files/data/fetch': ['type', 'fileID', 'preferNoContent'],
  'GET /files/preview/:fileID': [],
  'GET /files/download/:fileID': [],
  'PUT /files/magic-metadata': ['metadataList'],
  'PUT /files/public-magic-metadata': ['metadataList'],
  'GET /remote-store/feature-flags': [],
  'GET /billing/user-plans': [],
  'POST /files/trash': ['items'],
  'GET /trash/v2/diff': ['sinceTime'],
  'POST /trash/delete': ['fileIDs'],
  'POST /trash/empty': ['lastUpdatedAt'],
  'POST /collections/share-url': ['collectionID', 'enableCollect', 'enableJoin', 'validTill', 'deviceLimit'],
  'PUT /collections/share-url': [
    'collectionID',
    'validTill',
    'deviceLimit',
    'passHash',
    'nonce',
    'memLimit',
    'opsLimit',
    'enableDownload',
    'disablePassword',
  ],
  'DELETE /collections/share-url/:collectionID': [],
  'GET /public-collection/info': ['accessToken'],
  'GET /public-collection/diff': ['accessToken', 'accessTokenJWT', 'sinceTime'],
  'GET /public-collection/files/preview/:fileID': ['accessToken', 'accessTokenJWT'],
  'GET /public-collection/files/download/:fileID': ['accessToken', 'accessTokenJWT'],
  'POST /public-collection/verify-password': ['passHash'],
  'POST /public-collection/upload-url': ['contentLength', 'contentMD5'],
  'POST /public-collection/multipart-upload-url': ['contentLength', 'partLength', 'partMd5s'],
  'POST /public-collection/file': ['collectionID', 'file', 'thumbnail', 'metadata'],
  'POST /cast/device-info': ['publicKey'],
  'POST /cast/device-info/': ['publicKey'],
  'GET /cast/cast-data/:deviceCode': [],
  'GET /cast/device-info/:deviceCode': [],
  'POST /cast/cast-data': ['deviceCode', 'collectionID', 'castToken', 'encPayload'],
  'POST /cast/cast-data/': ['deviceCode', 'collectionID', 'castToken', 'encPayload'],
  'DELETE /cast/revoke-all-tokens': [],
  'DELETE /cast/revoke-all-tokens/': [],
  'GET /cast/device-info': [],
  'DELETE /cast/device-info/:deviceID': [],
  'GET /cast/diff': ['castToken', 'sinceTime'],
  'GET /cast/info': ['castToken'],
  'GET /cast/files/preview/:fileID': ['castToken'],
  'GET /cast/files/download/:fileID': ['castToken'],
};

/** The photos routes take a token of the photos app. */
const photosPackage = 'io.ente.photos.web';
const isPhotosRoute = (path: string) =>
  /^\/(collections|files|remote-store|billing|trash|public-collection|cast)\//.test(path) || path === '/files';

// ---- Generated text: all of Unicode, the awkward parts on purpose ----

/**
 * Characters that break naive handling: NUL, other C0 and C1 controls, DEL, lone surrogates (either
 * half, and a pair the wrong way round), non-characters, a BOM, separators, bidi override, combining
 * marks, case mappings that change length, astral characters, plane 16's last code point.
 */
const awkwardCharacters = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\udc00\ud800',
  '\ufffe',
  '\uffff',
  '\ufeff',
  '\u2028',
  '\u202e',
  '\u0301',
  '\u0130',
  'ß',
  '😀',
  '\u{10ffff}',
  '\u{e0001}',
] as const;
const awkwardCharacter = fc.constantFrom(...awkwardCharacters);
/** Awkward characters that are not white space, so that trimming never makes them harmless. */
const spoilers = awkwardCharacters.filter((character) => !/\s/.test(character));
/** The awkward characters no text may hold (docs/protocol.md#conventions): controls and lone surrogates. */
const forbidden = spoilers.filter((character) =>
  // eslint-disable-next-line no-control-regex -- the point is to find control characters
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(character),
);

/** A string of any code units: awkward characters, any code point, ASCII. */
const unicodeString = (maxLength = 40) =>
  fc.string({
    unit: fc.oneof(
      awkwardCharacter,
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
    ),
    maxLength,
  });

/** Strings shaped like e-mail addresses, with awkward characters in them. */
const emailShaped = fc.oneof(
  fc
    .tuple(unicodeString(12), unicodeString(6), fc.constantFrom('example.org', 'x.org', 'EXAMPLE.org'))
    .map(([local, more, domain]) => `${local}${more}@${domain}`),
  fc
    .tuple(fc.constantFrom(...spoilers), fc.nat(12))
    .map(([spoiler, at]) => `${'user'.slice(0, at)}${spoiler}${'user'.slice(at)}@example.org`),
  fc.constantFrom(
    'a\u0000@x.org',
    'x\ud800@example.org',
    '\udfff@example.org',
    'a@x\u0000.org',
    'a@x.org\u0000',
    '\u0000',
    'a\u0085@x.org',
    'a\u007f@x.org',
    '😀@example.org',
    '\ud83d@example.org',
    `${'a'.repeat(400)}@x.org`,
    `a@${'\ud800'.repeat(2000)}`,
  ),
);

/** Long strings: far over every cap, within the body limit once JSON-escaped. */
const longString = fc.constantFrom(
  'x'.repeat(100_000),
  '\u0000'.repeat(20_000),
  '\ud800'.repeat(20_000),
  '😀'.repeat(20_000),
  'A'.repeat(684) + '==',
  'AAAA'.repeat(200_000),
);

const nastyString = fc.oneof(
  fc.string(),
  unicodeString(),
  emailShaped,
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom('', ' ', 'null', '0', '-1', '1e309', 'NaN', '__proto__', 'constructor', '%00', '../../etc/passwd'),
  fc.constantFrom('00000000-0000-4000-8000-000000000000', '123456', '\u0000123456', '123456\ud800', '１２３４５６'),
  longString,
  fc.base64String({ maxLength: 1000 }),
);
const nastyValue = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);

/** A body: JSON (JSON.stringify writes lone surrogates as \ud800 escapes), broken JSON, or raw bytes. */
const bodyFor = (fields: string[]) =>
  fc.oneof(
    fc.record(Object.fromEntries(fields.map((field) => [field, nastyValue])), { requiredKeys: [] }).map(JSON.stringify),
    fc.dictionary(nastyString, nastyValue, { maxKeys: 5 }).map(JSON.stringify),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string(),
    fc.constantFrom('{', '{"a":', '[', '"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', ''),
    // Bytes that are not UTF-8 (a lone surrogate as CESU-8, a stray continuation byte, an overlong NUL).
    fc
      .tuple(fc.constantFrom(...fields, 'email'), fc.constantFrom('ed a0 80', 'ff fe', 'c0 80', '80', 'f4 90 80 80'))
      .map(([field, hex]) =>
        Buffer.concat([
          Buffer.from(`{"${field}":"a`),
          Buffer.from(hex.replace(/ /g, ''), 'hex'),
          Buffer.from('@x.org"}'),
        ]),
      ),
  );

/**
 * Percent-encodes every code unit of a string as UTF-8, a lone surrogate as the three bytes a careless
 * encoder writes for it (WTF-8), which URLSearchParams would have replaced with U+FFFD.
 */
function percentEncode(value: string): string {
  let encoded = '';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      encoded += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      encoded += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      encoded += encodeURIComponent(value[i] ?? '');
    }
  }
  return encoded;
}

/** A query value as it travels: percent-encoded text, or raw escapes that decode to no valid UTF-8. */
const queryValue = fc.oneof(
  nastyString.map((value) => percentEncode(value.slice(0, 300))),
  fc.constantFrom(
    '%00',
    '%ED%A0%80',
    '%ED%BF%BF',
    '%C0%80',
    '%FF',
    '%E0%A4%A',
    '%zz',
    '%',
    '%F4%90%80%80',
    '%F0%9F%98%80',
    'a%00%40x.org',
    'x%ED%A0%80%40example.org',
    'user%0D%0A%40example.org',
  ),
);

/** A raw query string over the route's fields, `token` and a stranger, keys repeated at times. */
const queryFor = (fields: string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...fields, 'token', 'x'), queryValue), queryValue), { maxLength: 6 })
    .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&'));

/** A path parameter: sometimes a real-looking UUID, mostly something that is not. */
const pathParameter = fc.oneof(
  fc.uuid(),
  queryValue.map((value) => value.slice(0, 600) || 'x'),
  fc.constantFrom('%00', '%ED%A0%80', '..', '%2F', 'a'.repeat(300)),
);

// ---- Plausible input, for the sweep that puts awkward text in one field at a time ----

/** Padded base64 of `bytes` zero bytes. */
const b64Bytes = (bytes: number) => Buffer.alloc(bytes).toString('base64');
const someUuid = '00000000-0000-4000-8000-000000000000';

/**
 * A well-formed value for each field name (`keyAttributes` comes from the test account), so that the one
 * awkward field of a request is what its validation and the code after it meet.
 */
const plausible: Record<string, unknown> = {
  email: 'someone@example.org',
  purpose: 'login',
  mobile: false,
  client: 'web',
  ott: '123456',
  source: 'web:friend',
  masterKeyEncryptedWithRecoveryKey: b64Bytes(48),
  masterKeyDecryptionNonce: b64Bytes(24),
  memoryCount: 'true',
  isEnabled: true,
  token: b64Bytes(32),
  srpUserID: someUuid,
  srpSalt: b64Bytes(16),
  srpVerifier: b64Bytes(512),
  srpA: b64Bytes(512),
  setupID: someUuid,
  srpM1: b64Bytes(32),
  logOutOtherDevices: false,
  sessionID: b64Bytes(32),
  code: '123456',
  encryptedTwoFactorSecret: b64Bytes(40),
  twoFactorSecretDecryptionNonce: b64Bytes(24),
  twoFactorType: 'totp',
  secret: 'JBSWY3DPEHPK3PXP',
  friendlyName: 'my key',
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  ceremonySessionID: someUuid,
  clientPackage: 'io.ente.auth',
  userSecretCipher: b64Bytes(48),
  userSecretNonce: b64Bytes(24),
  encryptedKey: b64Bytes(48),
  header: b64Bytes(24),
  encryptedData: 'AAAA',
  ifUpdatedAt: 1,
  sinceTime: '0',
  limit: '10',
  collectionID: 1,
  keyDecryptionNonce: b64Bytes(24),
  encryptedName: b64Bytes(30),
  nameDecryptionNonce: b64Bytes(24),
  magicMetadata: { version: 1, count: 1, data: 'AAAA', header: b64Bytes(24) },
  pubMagicMetadata: { version: 1, count: 1, data: 'AAAA', header: b64Bytes(24) },
  files: [{ id: 1, encryptedKey: b64Bytes(48), keyDecryptionNonce: b64Bytes(24) }],
  fromCollectionID: 1,
  toCollectionID: 2,
  fileIDs: [1],
  keepFiles: 'true',
  role: 'VIEWER',
  contentLength: 10,
  contentMD5: b64Bytes(16),
  partLength: 5 * 1024 * 1024,
  partMd5s: [b64Bytes(16)],
  file: { objectKey: '1/a', decryptionHeader: b64Bytes(24), size: 1 },
  thumbnail: { objectKey: '1/b', decryptionHeader: b64Bytes(24), size: 1 },
  metadata: { encryptedData: 'AAAA', decryptionHeader: b64Bytes(24) },
  metadataList: [{ id: 1, magicMetadata: { version: 1, count: 1, data: 'AAAA', header: b64Bytes(24) } }],
  publicKey: b64Bytes(32),
  deviceCode: 'ABCDEF',
  castToken: `cast_${'a'.repeat(22)}`,
  encPayload: b64Bytes(100),
};

/** Where a route's field means something else than the same name elsewhere. */
const plausibleFor: Record<string, Record<string, unknown>> = {
  'POST /passkeys/registration/finish': {
    sessionID: someUuid,
    response: { attestationObject: 'AAAA', clientDataJSON: 'AAAA', transports: ['usb'] },
  },
  'POST /users/two-factor/passkeys/finish': {
    response: { authenticatorData: 'AAAA', clientDataJSON: 'AAAA', signature: 'AAAA' },
  },
  'POST /users/srp/verify-session': { sessionID: someUuid },
  'POST /users/two-factor/passkeys/configure-recovery': { secret: b64Bytes(32) },
  'PUT /authenticator/entity': { id: someUuid },
  'DELETE /authenticator/entity': { id: someUuid, ifUpdatedAt: '1' },
  'GET /user-entity/key': { type: 'location' },
  'POST /user-entity/key': { type: 'location' },
  'POST /user-entity/entity': { type: 'location', id: 'location_0123456789abcdefghijkl' },
  'PUT /user-entity/entity': { type: 'location', id: 'location_0123456789abcdefghijkl' },
  'DELETE /user-entity/entity': { id: 'location_0123456789abcdefghijkl' },
  'GET /user-entity/entity/diff': { type: 'location' },
  'GET /files/data/fetch': { type: 'vid_preview', fileID: '1', preferNoContent: 'true' },
  'POST /collections': { type: 'album' },
  'POST /collections/share': { encryptedKey: b64Bytes(80) },
  'GET /collections/v2/diff': { collectionID: '1' },
  'PUT /collections/magic-metadata': { id: 1 },
  'PUT /collections/public-magic-metadata': { id: 1 },
  'PUT /collections/sharee-magic-metadata': { id: 1 },
};

/** Text fields inside objects, swept like the top-level ones. */
const nestedTextFields: Record<string, string[][]> = {
  'PUT /users/attributes': [['keyAttributes', 'kekHash']],
  'POST /users/srp/update': [['updatedKeyAttr', 'kekHash']],
  'POST /passkeys/registration/finish': [['response', 'transports', '0']],
  'POST /files': [
    ['file', 'objectKey'],
    ['thumbnail', 'objectKey'],
    ['metadata', 'encryptedData'],
  ],
  'POST /collections/add-files': [['files', '0', 'encryptedKey']],
  'PUT /files/magic-metadata': [['metadataList', '0', 'magicMetadata', 'data']],
};

/** The awkward values of the sweep: in a JSON body as they are, in the query percent-encoded. */
const sweepValues = [
  'a\u0000@x.org',
  'x\ud800@example.org',
  '\udfff',
  '\u0000',
  'a\u0085b',
  'a\u007fb',
  '😀@example.org',
  'x'.repeat(100_000),
];
/** Escapes that decode to no valid UTF-8 (or to NUL), for the query only. */
const sweepRawQueryValues = ['%00', '%ED%A0%80', '%C0%80', '%FF', 'a%00%40x.org', 'x%ED%A0%80%40example.org'];

function withValue(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  let target: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = target[key];
    if (typeof next !== 'object' || next === null) return copy;
    target = next as Record<string, unknown>;
  }
  target[path.at(-1) ?? ''] = value;
  return copy;
}

function queryOf(values: Record<string, unknown>, raw: Record<string, string> = {}): string {
  const pairs = Object.entries(values)
    .filter(([key, value]) => !(key in raw) && (typeof value !== 'object' || value === null))
    .map(([key, value]) => `${key}=${percentEncode(String(value).slice(0, 5000))}`);
  return [...pairs, ...Object.entries(raw).map(([key, value]) => `${key}=${value}`)].join('&');
}

// ---- Checks on every answer ----

interface Answer {
  status: number;
  text: string;
}

/** Words and shapes of the server's insides: database and framework errors, stack frames. */
const internals = [
  /invalid byte sequence/i,
  /pglite/i,
  /postgres/i,
  /\bFST_/,
  /\bERR_[A-Z_]+/,
  /\n\s*at /,
  /\bat (async )?[\w.<>]+ \(/,
  /node_modules/,
  /\.[cm]?[jt]s:\d+/,
  /\b(Type|Range|Syntax|Reference)Error\b/,
  /syntax error/i,
  /unterminated/i,
];

/** No 5xx; a refusal is JSON in exactly one of the three shapes; nothing of the server's insides. */
function assertWellFormed(what: string, answer: Answer): void {
  const excerpt = `${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  assert.ok(answer.status < 500, excerpt);
  for (const pattern of internals) assert.ok(!pattern.test(answer.text), `${excerpt} (shows ${String(pattern)})`);
  if (answer.status < 400) return;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    assert.fail(`${excerpt} (not JSON)`);
  }
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body), excerpt);
  const entries = Object.entries(body);
  const keys = entries.map(([key]) => key).sort();
  const allStrings = entries.every(([, value]) => typeof value === 'string');
  const shape = keys.join(',');
  assert.ok(allStrings && (shape === 'code,message' || shape === 'error' || shape === ''), `${excerpt} (shape)`);
}

/** What a test can send: a raw query string, a raw body (text or bytes), the headers. */
interface Request {
  method: string;
  path: string;
  query?: string;
  body?: string | Buffer;
  headers: Record<string, string>;
}

async function send(baseUrl: string, request: Request): Promise<Answer> {
  const url = new URL(request.path + (request.query ? `?${request.query}` : ''), baseUrl);
  // The URL parser leaves percent-escapes alone, so the raw query reaches the server as written.
  const body = request.body === undefined ? undefined : new Uint8Array(Buffer.from(request.body));
  const response = await fetch(url, { method: request.method, headers: request.headers, body });
  return { status: response.status, text: await response.text() };
}

describe('malformed input', () => {
  let server: TestServer;
  let account: Account;
  let photosToken: string;
  before(async () => {
    server = await startTestServer();
    account = await signUp(new ApiClient(server.url), server.mail, { srp: false });
    photosToken = await emailLoginToken(new ApiClient(server.url, photosPackage), server.mail, account);
  });
  after(() => server.close());

  /** The token a route takes: the passkey management routes want an accounts token, the photos routes a photos one. */
  async function tokenFor(path: string): Promise<string> {
    if (isPhotosRoute(path)) return photosToken;
    if (!path.startsWith('/passkeys')) return account.token;
    const answer = await new ApiClient(server.url).get('/users/accounts-token', { token: account.token });
    assert.equal(answer.status, 200, answer.text);
    return String(answer.body.accountsToken);
  }

  /** The client package a route's token belongs to (a token is refused with another app's package). */
  const packageFor = (path: string) => (isPhotosRoute(path) ? photosPackage : 'io.ente.auth.web');

  const headersOf = (clientPackage: string, contentType: string, auth: string | null) => ({
    'X-Client-Package': clientPackage,
    'Content-Type': contentType,
    ...(auth === null ? {} : { 'X-Auth-Token': auth }),
  });

  describe('a refused request never consumes a code', () => {
    const clientPackage = 'io.ente.auth.web';
    let api: ApiClient;
    before(() => {
      api = new ApiClient(server.url, clientPackage);
    });

    /** `text` with an awkward (non-space) character put in somewhere. */
    const spoiled = (text: string, characters: readonly string[] = spoilers) =>
      fc
        .tuple(fc.constantFrom(...characters), fc.nat(text.length))
        .map(([spoiler, at]) => text.slice(0, at) + spoiler + text.slice(at));
    /** Hostile variants of a right {email, ott}: each must be refused before the code is looked at. */
    const hostileVariants = (email: string, ott: string, withSource: boolean) =>
      fc.oneof(
        spoiled(email).map((bad) => ({ email: bad, ott })),
        spoiled(ott).map((bad) => ({ email, ott: bad })),
        fc
          .constantFrom<unknown>(
            Number(ott),
            [ott],
            { $ne: '' },
            null,
            ott.repeat(11),
            ott.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit))),
            ott.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit))),
          )
          .map((bad) => ({ email, ott: bad })),
        fc
          .constantFrom<unknown>(`${email}\u0000`, [email], `${'a'.repeat(320)}${email}`, null, 42)
          .map((bad) => ({ email: bad, ott })),
        ...(withSource
          ? [
              fc
                .oneof(spoiled('web:friend', forbidden), fc.constant('x'.repeat(100_000)), fc.constant(['web']))
                .map((source) => ({ email, ott, source })),
            ]
          : []),
      );

    async function liveCode(email: string, purpose: 'login' | 'change', auth: string | null) {
      // Past any send window that earlier requests may have filled.
      server.clock.advance(11 * 60_000_000);
      const sent = await api.post('/users/ott', { email, purpose }, { token: auth });
      assert.equal(sent.status, 200, sent.text);
      return server.mail.lastCode(email);
    }

    async function assertRefusedThenUsable(path: string, email: string, ott: string, auth: string | null) {
      await fc.assert(
        fc.asyncProperty(hostileVariants(email, ott, path === '/users/verify-email'), async (body) => {
          const answer = await send(server.url, {
            method: 'POST',
            path,
            body: JSON.stringify(body),
            headers: headersOf(clientPackage, 'text/plain;charset=UTF-8', auth),
          });
          assertWellFormed(`${path} ${JSON.stringify(body).slice(0, 200)}`, answer);
          assert.ok(answer.status >= 400, `${path} accepted ${JSON.stringify(body).slice(0, 200)}`);
        }),
        { numRuns: 40 },
      );
      const right = await api.post(path, { email, ott }, { token: auth });
      assert.equal(right.status, 200, `the right code no longer works: ${right.status} ${right.text}`);
      const again = await api.post(path, { email, ott }, { token: auth });
      assert.notEqual(again.status, 200, 'a code works once');
    }

    test('POST /users/verify-email', async () => {
      const own = await signUp(api, server.mail, { srp: false });
      const ott = await liveCode(own.email, 'login', null);
      await assertRefusedThenUsable('/users/verify-email', own.email, ott, null);
    });

    test('POST /users/change-email', async () => {
      const own = await signUp(api, server.mail, { srp: false });
      const newEmail = uniqueEmail('new');
      const ott = await liveCode(newEmail, 'change', own.token);
      await assertRefusedThenUsable('/users/change-email', newEmail, ott, own.token);
    });
  });

  test('the list above covers every route the server has', () => {
    // The object store's URLs speak S3's XML, not the API's JSON: routes/objects.test.ts sweeps them.
    const apiRoutes = server.app.routeList.filter((route) => !route.endsWith(' /objects/*'));
    assert.deepEqual(apiRoutes.sort(), Object.keys(routes).sort());
  });

  // Logging out, and ending a session named by ?token= (the token may travel there too), end the test
  // account's session: those routes come last.
  const last = new Set(['DELETE /users/session', 'POST /users/logout']);
  const inOrder = Object.entries(routes).sort(([a], [b]) => Number(last.has(a)) - Number(last.has(b)));

  describe('awkward text in each field in turn, the others plausible, with a valid token', () => {
    for (const [route, fields] of inOrder) {
      const nested = nestedTextFields[route] ?? [];
      if (fields.length === 0) continue;
      const [method, path] = route.split(' ') as [string, string];
      test(route, async () => {
        const auth = await tokenFor(path);
        const base: Record<string, unknown> = Object.fromEntries(
          fields.map((field) => [field, plausibleFor[route]?.[field] ?? plausible[field]]),
        );
        if ('keyAttributes' in base) base.keyAttributes = account.keys.keyAttributes;
        if ('updatedKeyAttr' in base) base.updatedKeyAttr = account.keys.keyAttributes;
        const at = path.replace(/:\w+/, someUuid);
        const headers = headersOf(packageFor(path), 'application/json', auth);
        for (const field of [...fields.map((name) => [name]), ...nested]) {
          for (const value of sweepValues) {
            const values = withValue(base, field, value);
            const request = { method, path: at, query: queryOf(values), headers };
            const body = method === 'GET' ? undefined : JSON.stringify(values);
            const shown = `${route} ${field.join('.')}=${JSON.stringify(value.slice(0, 40))}`;
            assertWellFormed(shown, await send(server.url, { ...request, body }));
          }
          if (field.length > 1) continue;
          for (const raw of sweepRawQueryValues) {
            const request = { method, path: at, query: queryOf(base, { [field[0] ?? '']: raw }), headers };
            const body = method === 'GET' ? undefined : JSON.stringify(base);
            assertWellFormed(`${route} ?${field[0] ?? ''}=${raw}`, await send(server.url, { ...request, body }));
          }
        }
      });
    }
  });

  describe('random input', () => {
    for (const [route, fields] of inOrder) {
      const [method, path] = route.split(' ') as [string, string];
      test(`${route}: no input yields a 5xx, a malformed refusal or internals`, async () => {
        const token = await tokenFor(path);
        await fc.assert(
          fc.asyncProperty(
            bodyFor(fields),
            queryFor(fields),
            pathParameter,
            fc.constantFrom('header', 'query', 'none'),
            fc.constantFrom(packageFor(path), 'io.ente.auth.web', 'io.ente.photos.web', '', '\u0000', 'x'.repeat(300)),
            fc.constantFrom('text/plain', 'application/json', 'application/octet-stream', 'multipart/form-data'),
            async (body, query, parameter, tokenIn, clientPackage, contentType) => {
              const tokenQuery = tokenIn === 'query' ? `token=${token}` : '';
              const request: Request = {
                method,
                path: path.replace(/:\w+/, parameter),
                query: [query, tokenQuery].filter((part) => part !== '').join('&'),
                body: method === 'GET' ? undefined : body,
                headers: headersOf(
                  clientPackage.replace(/[^\x20-\x7e]/g, ''),
                  contentType,
                  tokenIn === 'header' ? token : null,
                ),
              };
              const shown = `${method} ${request.path}?${(request.query ?? '').slice(0, 200)} ${String(body).slice(0, 200)}`;
              assertWellFormed(shown, await send(server.url, request));
            },
          ),
          { numRuns: 25 },
        );
      });
    }
  });

  test('the server is still up', async () => {
    assert.equal((await send(server.url, { method: 'GET', path: '/ping', headers: {} })).status, 200);
  });
});
