// Nothing secret leaks to the server: after every other browser test has run (this file is the last
// project, see playwright.config.ts), the secrets those tests collected (secrets.ts) are looked for in
// everything the server kept: every column of every table of its database, every byte of its database
// folder (write-ahead log and dead rows included), and its whole log. Each secret is looked for as raw
// bytes or UTF-8, hex (either case), b64 and b64url (with and without padding). The KEKs and the SRP
// login subkey are derived here from the passwords and the parameters the browser used.
import { expect, test } from '@playwright/test';

import { deriveKeyB64, deriveLoginSubKeyB64, fromB64, fromB64Url, utf8Bytes } from '@ente/crypto';
import { cryptoAPI } from '@ente/crypto/api.ts';

import { handedOffStack } from '../config.ts';
import { dumpDatabase, findNeedles, needlesOf, readFolder, type Needle } from '../leak-scan.ts';
import { serverLog } from '../mail.ts';
import { collectedSecrets } from '../secrets.ts';
import { base32Bytes } from '../totp.ts';

test('no password, key (account, album, file), recovery key, token or two-factor secret reaches the server database or log', async () => {
  test.setTimeout(300_000);
  const secrets = await collectedSecrets();
  // The scan proves something only if the flows ran and handed over every kind of secret.
  expect(
    {
      emails: secrets.emails.length > 0,
      passwords: secrets.passwords.length > 0,
      masterKeys: secrets.masterKeys.length > 0,
      recoveryKeys: secrets.recoveryKeys.length > 0,
      tokens: secrets.tokens.length > 0,
      twoFactorSecrets: secrets.twoFactorSecrets.length > 0,
      photoKeys: secrets.photoKeys.length > 0,
    },
    'secrets collected by the account tests (run the whole suite)',
  ).toEqual({
    emails: true,
    passwords: true,
    masterKeys: true,
    recoveryKeys: true,
    tokens: true,
    twoFactorSecrets: true,
    photoKeys: true,
  });

  const needles: Needle[] = [];
  const add = (label: string, bytes: Uint8Array) => needles.push(...needlesOf(label, bytes));
  const keks = new Set(secrets.keks);
  // A sign-in's key attributes and SRP attributes name the same parameters: each KEK is derived once (an
  // Argon2id of 256 MiB, seconds of CPU).
  const derived = new Set<string>();
  for (const [i, { password, kdf }] of secrets.passwords.entries()) {
    add(`password #${String(i + 1)}`, utf8Bytes(password));
    for (const { kekSalt, opsLimit, memLimit } of kdf) {
      const inputs = JSON.stringify([password, kekSalt, opsLimit, memLimit]);
      if (derived.has(inputs)) continue;
      derived.add(inputs);
      keks.add(await deriveKeyB64(password, kekSalt, opsLimit, memLimit));
    }
  }
  for (const [i, kek] of [...keks].entries()) {
    add(`KEK #${String(i + 1)}`, fromB64(kek));
    add(`login subkey of KEK #${String(i + 1)}`, fromB64(await deriveLoginSubKeyB64(kek)));
  }
  for (const [i, key] of secrets.masterKeys.entries()) add(`masterKey #${String(i + 1)}`, fromB64(key));
  const words = new Set(secrets.recoveryWords);
  for (const [i, key] of secrets.recoveryKeys.entries()) {
    add(`recovery key #${String(i + 1)}`, fromB64(key));
    words.add(await cryptoAPI.recoveryKeyToWords(key));
  }
  for (const [i, text] of [...words].entries()) add(`recovery words #${String(i + 1)}`, utf8Bytes(text));
  for (const [i, token] of secrets.tokens.entries()) add(`token #${String(i + 1)}`, fromB64Url(token));
  for (const [i, key] of secrets.photoKeys.entries()) add(`photos album or file key #${String(i + 1)}`, fromB64(key));
  for (const [i, secret] of secrets.twoFactorSecrets.entries()) {
    const label = `two-factor secret #${String(i + 1)}`;
    add(label, utf8Bytes(secret));
    add(`${label} (its 20 bytes)`, base32Bytes(secret));
    add(`${label} (base64-decoded, what the client encrypts)`, fromB64(secret));
  }

  // PGlite opens a folder in one process at a time: stop the stack (global setup owns it) first.
  const { dataDir, controlUrl } = handedOffStack();
  const stopped = await fetch(`${controlUrl}/stop`, { method: 'POST' });
  expect(stopped.status, 'the stack stopped').toBe(204);

  const columns = await dumpDatabase(dataDir);
  const files = await readFolder(dataDir);
  const log = Buffer.from(await serverLog(), 'utf8');

  // Positive controls: what was read holds the accounts, so a clean result means something.
  // An account used by several tests is collected once per test; each address is one needle.
  const emails = [...new Set(secrets.emails.map((email) => email.toLowerCase()))];
  const emailNeedles = emails.map((email) => ({ label: email, bytes: Buffer.from(email) }));
  const usersEmails = columns.find((dump) => dump.table === 'public.users' && dump.column === 'email');
  expect(findNeedles(usersEmails?.contents ?? Buffer.alloc(0), emailNeedles).sort()).toEqual(
    emailNeedles.map((needle) => needle.label).sort(),
  );
  expect(findNeedles(log, emailNeedles).length, 'accounts named in the server log').toBeGreaterThan(0);
  expect(files.length, 'files in the database folder').toBeGreaterThan(0);

  const leaks = [
    ...columns.flatMap((dump) =>
      findNeedles(dump.contents, needles).map((label) => `${label} in ${dump.table}.${dump.column}`),
    ),
    ...files.flatMap(({ file, contents }) =>
      findNeedles(contents, needles).map((label) => `${label} in the database file ${file}`),
    ),
    ...findNeedles(log, needles).map((label) => `${label} in the server log`),
  ];
  test.info().annotations.push({
    type: 'scanned',
    description:
      `${String(needles.length)} forms of ${String(secrets.passwords.length)} passwords and their keys in ` +
      `${String(columns.length)} columns, ${String(files.length)} files and ${String(log.length)} bytes of log`,
  });
  expect(leaks).toEqual([]);
});
