/** @jest-environment node */

import { expectedFile, expectMatchesFixture, readFixture, readFixtureText } from './testing.ts';
import { looksLikeTwoFAS, parseTwoFAS } from './twofas.ts';
import { ImportFormatError, ImportPasswordError } from './types.ts';

const plainFixtures: [string, string][] = [
  ['aegis-importers', '2fas_authenticator_plain_v3.2fas'],
  ['aegis-importers', '2fas_authenticator_plain_v4.2fas'],
  ['proton-pass-common', '2fas-decrypted.2fas'],
  ['proton-pass-common', '2fas-decrypted_with_hotp_missing_period.2fas'],
  ['proton-pass-common', '2fas-decrypted_with_hotp_and_unsupported_algorithms.2fas'],
  ['stratum', 'twofas.unencrypted.2fas'],
];
const encryptedFixtures = ['2fas_authenticator_encrypted_v3.2fas', '2fas_authenticator_encrypted_v4.2fas'];

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** `Base64(ciphertext ‖ tag):Base64(salt):Base64(iv)` of `plain`, as 2FAS writes it. */
async function sealed(password: string, plain: string, salt = crypto.getRandomValues(new Uint8Array(256))) {
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveKey']);
  const key = await crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 10_000 },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt'],
  );
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const out = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plain)),
  );
  return `${toBase64(out)}:${toBase64(salt)}:${toBase64(iv)}`;
}

const service = (fields: Record<string, unknown> = {}, otp: Record<string, unknown> = {}) => ({
  name: 'Example',
  secret: 'JBSWY3DPEHPK3PXP',
  updatedAt: 1,
  otp: { account: 'alice', issuer: 'Example', digits: 6, period: 30, algorithm: 'SHA1', tokenType: 'TOTP', ...otp },
  order: { position: 0 },
  ...fields,
});

const backup = (services: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ services, groups: [], updatedAt: 1, schemaVersion: 4, appOrigin: 'android', ...extra });

async function passwordError(promise: Promise<unknown>, kind: 'needed' | 'wrong') {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportPasswordError);
  expect((error as ImportPasswordError).kind).toBe(kind);
}

describe('plain 2FAS backups', () => {
  test.each(plainFixtures)('%s/%s reads as expected.json says', async (folder, file) => {
    expectMatchesFixture(await parseTwoFAS(readFixtureText(folder, file)), folder, file);
  });

  test('reads bytes as well as text, and is detected', async () => {
    const bytes = new Uint8Array(readFixture('stratum', 'twofas.unencrypted.2fas'));
    expectMatchesFixture(await parseTwoFAS(bytes), 'stratum', 'twofas.unencrypted.2fas');
    for (const [folder, file] of plainFixtures) expect(looksLikeTwoFAS(readFixture(folder, file))).toBe(true);
    for (const file of encryptedFixtures) expect(looksLikeTwoFAS(readFixtureText('aegis-importers', file))).toBe(true);
  });

  test('is not detected in other exports', () => {
    expect(looksLikeTwoFAS(readFixtureText('aegis-importers', 'aegis_plain.json'))).toBe(false);
    expect(looksLikeTwoFAS(readFixtureText('aegis-importers', 'bitwarden.json'))).toBe(false);
    expect(looksLikeTwoFAS('{"services": []}')).toBe(false);
    expect(looksLikeTwoFAS('')).toBe(false);
  });

  test('maps groups to tags and ignores unknown group ids', async () => {
    const text = backup([service({ groupId: 'g1' }), service({ groupId: 'nope' }), service({ groupId: 7 })], {
      groups: [{ id: 'g1', name: ' Work ' }, { id: 'g2' }, 'junk'],
    });
    const { codes } = await parseTwoFAS(text);
    expect(codes.map((code) => code.display.tags)).toEqual([['Work'], [], []]);
  });

  test('falls back to the service name and the label for missing names', async () => {
    const { codes } = await parseTwoFAS(
      backup([
        service({ name: 'Named' }, { issuer: undefined, account: undefined, label: 'Named:bob' }),
        service({ name: 'Plain' }, { issuer: '', account: '', label: 'carol' }),
        service({ name: 'Typeless' }, { tokenType: undefined }),
      ]),
    );
    expect(codes.map(({ type, issuer, account }) => ({ type, issuer, account }))).toEqual([
      { type: 'totp', issuer: 'Named', account: 'bob' },
      { type: 'totp', issuer: 'Plain', account: 'carol' },
      { type: 'totp', issuer: 'Example', account: 'alice' },
    ]);
  });

  test('skips unsupported types, algorithms and digits with the value named', async () => {
    const { codes, skipped } = await parseTwoFAS(
      backup([
        service({}, { account: 'y', tokenType: 'YANDEX' }),
        service({}, { account: 'md5', algorithm: 'MD5' }),
        service({}, { account: 'sha224', algorithm: 'SHA224' }),
        service({}, { account: 'd', digits: 12 }),
        service({}, { account: 'p', period: 0 }),
        service({ secret: 'not base32!' }, { account: 's' }),
        service({}, { account: 'h', tokenType: 'HOTP', counter: 7, period: undefined }),
        service({}, { account: 'steam', tokenType: 'STEAM', digits: 5 }),
      ]),
    );
    expect(skipped).toEqual([
      { issuer: 'Example', account: 'y', reason: 'unsupportedType', detail: 'yandex' },
      { issuer: 'Example', account: 'md5', reason: 'unsupportedAlgorithm', detail: 'MD5' },
      { issuer: 'Example', account: 'sha224', reason: 'unsupportedAlgorithm', detail: 'SHA224' },
      { issuer: 'Example', account: 'd', reason: 'unsupportedDigits', detail: '12' },
      { issuer: 'Example', account: 'p', reason: 'badPeriod', detail: '0' },
      { issuer: 'Example', account: 's', reason: 'badSecret' },
    ]);
    expect(codes.map(({ type, counter, digits }) => ({ type, counter, digits }))).toEqual([
      { type: 'hotp', counter: 7, digits: 6 },
      { type: 'steam', counter: 0, digits: 5 },
    ]);
  });
});

describe('encrypted 2FAS backups', () => {
  test.each(encryptedFixtures)('%s opens with its password', async (file) => {
    const expected = expectedFile('aegis-importers', file);
    const result = await parseTwoFAS(readFixtureText('aegis-importers', file), { password: expected.password });
    expectMatchesFixture(result, 'aegis-importers', file);
  });

  test.each(encryptedFixtures)('%s: a wrong password is wrong, none is needed', async (file) => {
    const text = readFixtureText('aegis-importers', file);
    await passwordError(parseTwoFAS(text, { password: 'Test' }), 'wrong');
    await passwordError(parseTwoFAS(text), 'needed');
    await passwordError(parseTwoFAS(text, { password: '' }), 'needed');
  });

  test('without a reference, a wrong password is still detected', async () => {
    const text = backup([], { servicesEncrypted: await sealed('pw', JSON.stringify([service()])) });
    expect((await parseTwoFAS(text, { password: 'pw' })).codes).toHaveLength(1);
    await passwordError(parseTwoFAS(text, { password: 'other' }), 'wrong');
  });

  test('services that do not decrypt under a good reference are damaged, not a wrong password', async () => {
    const reference = await sealed('pw', 'tasty');
    const services = await sealed('other', JSON.stringify([service()]));
    const text = backup([], { servicesEncrypted: services, reference });
    await expect(parseTwoFAS(text, { password: 'pw' })).rejects.toBeInstanceOf(ImportFormatError);
  });

  test('damaged encrypted fields and decrypted non-lists are format errors', async () => {
    const good = JSON.parse(readFixtureText('aegis-importers', '2fas_authenticator_encrypted_v4.2fas')) as Record<
      string,
      unknown
    >;
    const [data, salt, iv] = String(good.servicesEncrypted).split(':');
    for (const servicesEncrypted of ['', 'abc', `${data}:${salt}`, `${data}:${salt}:AAAA`, `%%:${salt}:${iv}`, 42]) {
      const text = JSON.stringify({ ...good, servicesEncrypted });
      await expect(parseTwoFAS(text, { password: 'test' })).rejects.toBeInstanceOf(ImportFormatError);
      // A damaged file is said to be damaged before a password is asked for.
      await expect(parseTwoFAS(text)).rejects.toBeInstanceOf(ImportFormatError);
    }
    await expect(parseTwoFAS(JSON.stringify({ ...good, reference: 'x:y' }))).rejects.toBeInstanceOf(ImportFormatError);
    const notList = backup([], { servicesEncrypted: await sealed('pw', '{"a":1}') });
    await expect(parseTwoFAS(notList, { password: 'pw' })).rejects.toBeInstanceOf(ImportFormatError);
    const notJSON = backup([], { servicesEncrypted: await sealed('pw', '[{') });
    await expect(parseTwoFAS(notJSON, { password: 'pw' })).rejects.toBeInstanceOf(ImportFormatError);
  });
});

describe('hostile 2FAS input', () => {
  test.each([
    ['truncated', readFixtureText('stratum', 'twofas.unencrypted.2fas').slice(0, 700)],
    ['empty', ''],
    ['garbage bytes', new Uint8Array([0xff, 0x00, 0xfe, 0x7b, 0x22])],
    ['an array', '[]'],
    ['null', 'null'],
    ['no services', '{"schemaVersion": 4}'],
    ['services not a list', backup({ a: 1 })],
    ['services a string', backup('x')],
    ['an unknown schema', backup([], { schemaVersion: 9 })],
    ['an older schema', backup([], { schemaVersion: 1 })],
    ['a schema as text', backup([], { schemaVersion: '4' })],
  ])('%s is a format error', async (_name, content) => {
    await expect(parseTwoFAS(content)).rejects.toBeInstanceOf(ImportFormatError);
  });

  test('wrong shapes inside a service are skipped as malformed, never thrown', async () => {
    const { codes, skipped } = await parseTwoFAS(
      backup([
        null,
        'text',
        service({ otp: 'x' }),
        service({ name: 5, otp: null }),
        service({}, { digits: '6' }),
        service({}, { issuer: 12 }),
        service({}, { account: ['a'] }),
        service({}, { tokenType: 3 }),
        service({ secret: 123 }),
        service({}, { counter: 'x', tokenType: 'HOTP' }),
        service({ name: 'N\u0000ul\u0007l' }, { issuer: null, account: 'bob\u001b[31m' }),
      ]),
    );
    expect(skipped.map((s) => s.reason)).toEqual(Array(10).fill('malformed'));
    expect(codes.map(({ issuer, account }) => ({ issuer, account }))).toEqual([{ issuer: 'Null', account: 'bob[31m' }]);
  });

  test('never puts the secret in a skip detail', async () => {
    const { skipped } = await parseTwoFAS(backup([service({ secret: 'JBSWY3DPEHPK3PXP!' }, { algorithm: 'MD5' })]));
    expect(JSON.stringify(skipped)).not.toContain('JBSWY3DPEHPK3PXP');
  });
});
