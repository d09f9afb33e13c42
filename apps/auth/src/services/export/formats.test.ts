/** @jest-environment node */
// Every export read back by our own importers gives the same codes and metadata: Ente's plain text and
// its encrypted envelope (opened as Ente's apps open it), Aegis' vault JSON, and Google Authenticator's
// QR codes drawn as images and read by the QR reader. The printable sheet escapes what it shows.
import { readFileSync } from 'node:fs';

import QRCode from 'qrcode';

import { cryptoAPI } from '@ente/crypto/api.ts';

import { codeDataOf } from '../../components/editor/testing/fixtures.ts';
import { parseAegis } from '../import/aegis.ts';
import { parseEnteEncrypted } from '../import/ente-encrypted.ts';
import { parseOtpauthList } from '../import/otpauth-list.ts';
import { readImport } from '../import/read.ts';
import { encodeMigration } from '../migration.ts';
import { provideQRReaderWasm } from '../qr-reader.ts';
import type { CodeData } from '../types.ts';
import { aegisJSON, entePlainText, exportFileName, fileStamp, htmlSheet } from './formats.ts';

const codes: CodeData[] = [
  codeDataOf({
    issuer: 'Work, Inc.',
    account: 'ada@example.org',
    secret: 'JBSWY3DPEHPK3PXP',
    display: { tags: ['work', 'mail'], pinned: true, note: 'Line one\nline, two', unknown: { futureKey: [1, 2] } },
    unknownParams: [['image', 'https://example.org/a,b.png']],
  }),
  codeDataOf({ issuer: 'Counter', account: 'bob', secret: 'MFRGGZDFMZTWQ2LK', type: 'hotp', counter: 42, digits: 8 }),
  codeDataOf({ issuer: 'Steam', account: 'gamer', secret: 'GEZDGNBVGY3TQOJQ', type: 'steam', digits: 5 }),
  codeDataOf({
    issuer: 'Binned',
    account: 'old',
    secret: 'ONSWG4TFOQ',
    algorithm: 'sha512',
    period: 60,
    display: { trashed: true },
  }),
];

const essentials = (list: readonly CodeData[]) =>
  list.map(({ type, issuer, account, secret, algorithm, digits, period, counter, display }) => ({
    type,
    issuer,
    account,
    secret,
    algorithm,
    digits,
    ...(type === 'hotp' ? { counter } : { period }),
    tags: display.tags,
    pinned: display.pinned,
    note: display.note,
  }));

test('Ente plain text reads back to identical codes, codeDisplay and unknown parameters included', async () => {
  const text = entePlainText(codes);
  expect(text.split('\n').filter(Boolean)).toHaveLength(4);
  expect(text).not.toMatch(/,/);
  const result = await parseOtpauthList(text);
  expect(result.format).toBe('ente-plain');
  expect(result.skipped).toEqual([]);
  expect(result.codes).toEqual(codes);
});

test('the encrypted export opens with its password to identical codes', async () => {
  const envelope = await cryptoAPI.encryptEnteExport('export password', entePlainText(codes), {
    opsLimit: 1,
    memLimit: 8192,
  });
  expect(Object.keys(envelope).sort()).toEqual(['encryptedData', 'encryptionNonce', 'kdfParams', 'version']);
  const result = await parseEnteEncrypted(JSON.stringify(envelope), { password: 'export password' });
  expect(result.codes).toEqual(codes);
});

test('Aegis JSON reads back with tags as groups, pin as favourite and the note', async () => {
  const json = aegisJSON(codes);
  const file = JSON.parse(json) as { db: { groups: { name: string }[] } };
  expect(file.db.groups.map((group) => group.name)).toEqual(['work', 'mail']);
  const result = await parseAegis(json);
  expect(result.skipped).toEqual([]);
  // Aegis has no trash: a trashed code comes back as a code.
  expect(essentials(result.codes)).toEqual(essentials(codes));
});

test('Google Authenticator QR codes, drawn and read back, hold the codes it can hold', async () => {
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  provideQRReaderWasm(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const { uris, skipped } = encodeMigration(codes, { perQR: 2 });
  expect(skipped.map((code) => code.issuer)).toEqual(['Steam', 'Binned']);
  const read: CodeData[] = [];
  for (const uri of uris) {
    const png = await QRCode.toBuffer(uri, { errorCorrectionLevel: 'M' });
    read.push(...(await readImport(new Blob([new Uint8Array(png)]))).codes);
  }
  const kept = codes.slice(0, 2);
  expect(
    read.map(({ type, issuer, account, secret, digits, counter }) => ({
      type,
      issuer,
      account,
      secret,
      digits,
      counter,
    })),
  ).toEqual(
    kept.map(({ type, issuer, account, secret, digits, counter }) => ({
      type,
      issuer,
      account,
      secret,
      digits,
      counter,
    })),
  );
});

test('the printable sheet escapes every text and holds one QR code per code, and no script', () => {
  const hostile = [codeDataOf({ issuer: '<script>alert(1)</script>', account: '"&\'' })];
  const html = htmlSheet(
    hostile,
    { title: 'Codes', warning: 'Keep it safe', issuer: 'Issuer', account: 'Account', details: 'Details' },
    (text) => `<svg data-text="${text.length}"></svg>`,
    'en-US',
  );
  expect(html).not.toContain('<script>');
  expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  expect(html).toContain('&#34;&#38;&#39;');
  expect(html.match(/<svg /g)).toHaveLength(1);
});

test('file names follow Ente’s, in local time', () => {
  const date = new Date(2026, 0, 2, 3, 4, 5);
  expect(fileStamp(date)).toBe('20260102-030405');
  expect(exportFileName('ente-plain', date)).toBe('ente-auth-codes-plaintext-20260102-030405.txt');
  expect(exportFileName('ente-encrypted', date)).toBe('ente-auth-codes-20260102-030405.txt');
  expect(exportFileName('html', date)).toBe('ente-auth-codes-plainhtml-20260102-030405.html');
});
