/** @jest-environment node */

import { scryptKey } from '@ente/crypto/scrypt.ts';

import { looksLikeAegis, parseAegis } from './aegis.ts';
import { expectedFile, expectMatchesExpected, expectMatchesFixture, readFixture, readFixtureText } from './testing.ts';
import { ImportFormatError, ImportPasswordError, ImportSizeError } from './types.ts';

const plainFixtures: [string, string][] = [
  ['aegis-importers', 'aegis_plain.json'],
  ['proton-pass-common', 'aegis-aegis-json-unencrypted.json'],
  ['proton-pass-common', 'aegis-aegis-json-unencrypted-with-missing-fields.json'],
  ['stratum', 'aegis.unencrypted.json'],
];

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** AES-256-GCM sealing split as Aegis stores it: ciphertext, and the 16-byte tag apart. */
async function seal(key: Uint8Array, nonce: Uint8Array, plain: Uint8Array) {
  const cryptoKey = await crypto.subtle.importKey('raw', new Uint8Array(key), 'AES-GCM', false, ['encrypt']);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(nonce) }, cryptoKey, new Uint8Array(plain)),
  );
  return { ciphertext: sealed.slice(0, -16), tag: sealed.slice(-16) };
}

/** An encrypted vault made here with a cheap scrypt cost, one password slot per password. */
async function encryptedVault(db: unknown, passwords: string[], n = 1024) {
  const masterKey = crypto.getRandomValues(new Uint8Array(32));
  const slots = [];
  for (const password of passwords) {
    const salt = crypto.getRandomValues(new Uint8Array(32));
    const nonce = crypto.getRandomValues(new Uint8Array(12));
    const slotKey = await scryptKey(new TextEncoder().encode(password), salt, { N: n, r: 8, p: 1 });
    const { ciphertext, tag } = await seal(slotKey, nonce, masterKey);
    slots.push({
      type: 1,
      uuid: crypto.randomUUID(),
      key: toHex(ciphertext),
      key_params: { nonce: toHex(nonce), tag: toHex(tag) },
      n,
      r: 8,
      p: 1,
      salt: toHex(salt),
      repaired: true,
    });
  }
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const { ciphertext, tag } = await seal(masterKey, nonce, new TextEncoder().encode(JSON.stringify(db)));
  return {
    version: 1,
    header: { slots, params: { nonce: toHex(nonce), tag: toHex(tag) } },
    db: toBase64(ciphertext),
  };
}

function vault(entries: unknown[], groups?: unknown[]) {
  return JSON.stringify({ version: 1, header: { slots: null, params: null }, db: { version: 3, entries, groups } });
}

const totp = (fields: Record<string, unknown> = {}, info: Record<string, unknown> = {}) => ({
  type: 'totp',
  uuid: crypto.randomUUID(),
  name: 'alice@example.com',
  issuer: 'Example',
  note: '',
  favorite: false,
  icon: null,
  info: { secret: 'JBSWY3DPEHPK3PXP', algo: 'SHA1', digits: 6, period: 30, ...info },
  groups: [],
  ...fields,
});

async function formatError(promise: Promise<unknown>) {
  await expect(promise).rejects.toBeInstanceOf(ImportFormatError);
}

async function passwordError(promise: Promise<unknown>, kind: 'needed' | 'wrong') {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportPasswordError);
  expect((error as ImportPasswordError).kind).toBe(kind);
}

describe('plain Aegis vaults', () => {
  test.each(plainFixtures)('%s/%s reads as expected.json says', async (folder, file) => {
    const expected = expectedFile(folder, file);
    expect(expected.format).toBe('aegis-json');
    const result = await parseAegis(readFixtureText(folder, file));
    expect(result.format).toBe('aegis');
    expectMatchesExpected(result, expected.entries, expected.unsupported);
  });

  test('reads the same file given as bytes', async () => {
    const result = await parseAegis(new Uint8Array(readFixture('aegis-importers', 'aegis_plain.json')));
    expectMatchesFixture(result, 'aegis-importers', 'aegis_plain.json');
  });

  test('reports the deliberately invalid digits and period instead of importing them', async () => {
    const file = 'aegis-aegis-json-unencrypted-with-bad-period-digits.json';
    expect(expectedFile('proton-pass-common', file).entries).toEqual([]);
    const result = await parseAegis(readFixtureText('proton-pass-common', file));
    expect(result.codes).toEqual([]);
    expect(result.skipped).toEqual([
      { issuer: 'myissuer', account: 'bad-digits', reason: 'unsupportedDigits', detail: '0' },
      { issuer: 'myissuer', account: 'bad-period', reason: 'badPeriod', detail: '0' },
    ]);
  });

  test('maps group names to tags, favorite to pinned and keeps the note', async () => {
    const groups = [
      { uuid: 'g1', name: 'Work' },
      { uuid: 'g2', name: 'Email' },
    ];
    const entry = totp({ groups: ['g2', 'unknown', 'g1', 7], favorite: true, note: 'line one\r\nline two' });
    const { codes } = await parseAegis(vault([entry], groups));
    expect(codes[0]?.display).toMatchObject({ tags: ['Email', 'Work'], pinned: true, note: 'line one\nline two' });
  });

  test('reads the single group name of older (version 2) vaults', async () => {
    const { codes } = await parseAegis(vault([totp({ groups: undefined, group: 'Legacy' })]));
    expect(codes[0]?.display.tags).toEqual(['Legacy']);
  });

  test('skips mOTP, Yandex and MD5 with the type or algorithm named', async () => {
    const entries = [
      totp({ type: 'motp', name: 'm' }, { algo: 'MD5', pin: '1234' }),
      totp({ type: 'yandex', name: 'y' }, { pin: '1234' }),
      totp({ name: 'md5' }, { algo: 'MD5' }),
      totp({ type: 'hotp', name: 'h' }, { counter: 3, period: undefined }),
    ];
    const { codes, skipped } = await parseAegis(vault(entries));
    expect(skipped).toEqual([
      { issuer: 'Example', account: 'm', reason: 'unsupportedType', detail: 'motp' },
      { issuer: 'Example', account: 'y', reason: 'unsupportedType', detail: 'yandex' },
      { issuer: 'Example', account: 'md5', reason: 'unsupportedAlgorithm', detail: 'MD5' },
    ]);
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ type: 'hotp', counter: 3 });
  });
});

describe('encrypted Aegis vaults', () => {
  const file = 'aegis_encrypted.json';

  // The fixture costs scrypt N=2^15 per try: one right and one wrong password, no more.
  test('opens the fixture with its password', async () => {
    const expected = expectedFile('aegis-importers', file);
    const result = await parseAegis(readFixtureText('aegis-importers', file), { password: expected.password });
    expect(result.format).toBe('aegis-encrypted');
    expectMatchesExpected(result, expected.entries, expected.unsupported);
  });

  test('says the password is wrong', async () => {
    await passwordError(parseAegis(readFixtureText('aegis-importers', file), { password: 'not it' }), 'wrong');
  });

  test('asks for the password without deriving anything', async () => {
    await passwordError(parseAegis(readFixtureText('aegis-importers', file)), 'needed');
    await passwordError(parseAegis(readFixtureText('aegis-importers', file), { password: '' }), 'needed');
  });

  test('tries every password slot', async () => {
    const db = { version: 3, entries: [totp()], groups: [] };
    const text = JSON.stringify(await encryptedVault(db, ['first', 'second']));
    const { codes } = await parseAegis(text, { password: 'second' });
    expect(codes.map((code) => code.issuer)).toEqual(['Example']);
    await passwordError(parseAegis(text, { password: 'third' }), 'wrong');
  });

  test('reports a damaged database or header as a damaged file', async () => {
    const good = await encryptedVault({ version: 3, entries: [] }, ['pw']);
    const flipped = atob(good.db);
    const damagedDb = btoa(String.fromCharCode(flipped.charCodeAt(0) ^ 1) + flipped.slice(1));
    await formatError(parseAegis(JSON.stringify({ ...good, db: damagedDb }), { password: 'pw' }));
    await formatError(parseAegis(JSON.stringify({ ...good, db: '%%%' }), { password: 'pw' }));
    const badNonce = { ...good.header, params: { nonce: 'zz', tag: good.header.params.tag } };
    await formatError(parseAegis(JSON.stringify({ ...good, header: badNonce }), { password: 'pw' }));
    // Only biometric slots: nothing a password can open.
    const biometric = { ...good.header, slots: good.header.slots.map((slot) => ({ ...slot, type: 2 })) };
    await formatError(parseAegis(JSON.stringify({ ...good, header: biometric }), { password: 'pw' }));
    // A database that decrypts to JSON that is not an object.
    await formatError(parseAegis(JSON.stringify(await encryptedVault('x', ['pw'])), { password: 'pw' }));
  });

  test('refuses scrypt costs that would exhaust memory, before deriving', async () => {
    const good = await encryptedVault({ version: 3, entries: [] }, ['pw']);
    for (const cost of [{ n: 2 ** 22 }, { n: 2 ** 17, p: 16 }, { n: 1000 }, { r: 0 }, { p: 1000 }, { n: '1024' }]) {
      const slots = good.header.slots.map((slot) => ({ ...slot, ...cost }));
      await formatError(parseAegis(JSON.stringify({ ...good, header: { ...good.header, slots } }), { password: 'pw' }));
    }
  });
});

describe('hostile Aegis input', () => {
  test.each([
    ['truncated', readFixtureText('aegis-importers', 'aegis_plain.json').slice(0, 500)],
    ['empty', ''],
    ['an array', '[]'],
    ['no header', JSON.stringify({ version: 1, db: { entries: [] } })],
    ['db a number', JSON.stringify({ version: 1, header: {}, db: 5 })],
    ['entries not a list', JSON.stringify({ version: 1, header: {}, db: { entries: {} } })],
    ['NUL bytes', '\u0000\u0000{'],
  ])('%s → ImportFormatError', async (_, text) => {
    await formatError(parseAegis(text));
  });

  test('refuses garbage bytes and huge input', async () => {
    await formatError(parseAegis(crypto.getRandomValues(new Uint8Array(4096))));
    await expect(parseAegis(' '.repeat(33 * 1024 * 1024))).rejects.toBeInstanceOf(ImportSizeError);
  });

  test('skips entries of the wrong shape without failing the file', async () => {
    const entries = [
      null,
      'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
      totp({ name: 'digits-text' }, { digits: '6' }),
      totp({ name: 'no-info', info: 'JBSWY3DPEHPK3PXP' }),
      totp({ name: 'secret-number' }, { secret: 12345 }),
      totp({ name: 'secret-bad' }, { secret: 'not base32!' }),
      totp({ name: 'fraction' }, { period: 30.5 }),
      totp({ name: 'huge-period' }, { period: 1e9 }),
      totp({ type: 'hotp', name: 'negative' }, { counter: -1 }),
      totp({ type: 7, name: 'type-number' }),
      totp({ issuer: { x: 1 }, name: 'issuer-object' }),
      totp({ name: 'ok\u0000\u0007', issuer: ' Ex\u001bample ', note: 'a\u0000b', groups: 'g1' }),
    ];
    const { codes, skipped } = await parseAegis(vault(entries, 'not a list' as unknown as unknown[]));
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ issuer: 'Example', account: 'ok', display: { note: 'ab', tags: [] } });
    expect(skipped.map((s) => `${s.account}:${s.reason}`)).toEqual([
      ':malformed',
      ':malformed',
      'digits-text:malformed',
      'no-info:malformed',
      'secret-number:malformed',
      'secret-bad:badSecret',
      'fraction:badPeriod',
      'huge-period:badPeriod',
      'negative:badCounter',
      'type-number:malformed',
      'issuer-object:malformed',
    ]);
    // No secret ever appears in what is reported.
    expect(JSON.stringify(skipped)).not.toMatch(/JBSWY3DP|12345|base32/);
  });
});

describe('looksLikeAegis', () => {
  test('recognises plain and encrypted vaults, as text or bytes', () => {
    for (const [folder, file] of [...plainFixtures, ['aegis-importers', 'aegis_encrypted.json']] as const) {
      expect(looksLikeAegis(readFixtureText(folder, file))).toBe(true);
      expect(looksLikeAegis(new Uint8Array(readFixture(folder, file)))).toBe(true);
    }
  });

  test('does not claim other files', () => {
    expect(looksLikeAegis(readFixtureText('aegis-importers', 'andotp_plain.json'))).toBe(false);
    expect(looksLikeAegis(readFixtureText('aegis-importers', 'freeotp_plus.json'))).toBe(false);
    expect(looksLikeAegis(new Uint8Array(readFixture('aegis-importers', 'andotp_encrypted.bin')))).toBe(false);
    expect(looksLikeAegis('otpauth://totp/x?secret=JBSWY3DPEHPK3PXP')).toBe(false);
    expect(looksLikeAegis('')).toBe(false);
  });
});
