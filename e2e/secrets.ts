// The secrets of the accounts the browser tests use, collected while the flows run so that the leak scan
// (tests/leaks.spec.ts) can look for them in everything the server kept. Each test writes what it saw to
// test-results/secrets/<test>.json: the password as typed, the keys as the browser holds them (the
// masterKey unwrapped from session storage, the token from kv), the recovery key as shown, the
// two-factor secret as shown. KEKs are derived from the password by the scan itself.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { Page, TestInfo } from '@playwright/test';

import { cryptoAPI, type KeyStash } from '@ente/crypto/api.ts';

import { vectorPassword } from './api.ts';
import { readKV } from './stack.ts';

export const secretsFolder = path.join(import.meta.dirname, 'test-results', 'secrets');

/** The Argon2id parameters a password was used with (to derive its KEK in the scan). */
export interface KdfParamsRecord {
  kekSalt: string;
  opsLimit: number;
  memLimit: number;
}

export interface SecretsRecord {
  /** The account's address, a positive control: the scan must find it in the database and the log. */
  emails: string[];
  passwords: { password: string; kdf: KdfParamsRecord[] }[];
  /** b64 */
  masterKeys: string[];
  /** b64 */
  recoveryKeys: string[];
  /** The recovery key as the 24 words shown. */
  recoveryWords: string[];
  /** b64, KEKs the browser had at hand (session storage `keyEncryptionKey`) */
  keks: string[];
  /** Padded b64url */
  tokens: string[];
  /** base32, as the setup page shows it */
  twoFactorSecrets: string[];
  /** b64, the photos app's album and file keys (photos-upload.spec.ts opens them from the server's rows). */
  photoKeys: string[];
}

export const emptySecrets = (): SecretsRecord => ({
  emails: [],
  passwords: [],
  masterKeys: [],
  recoveryKeys: [],
  recoveryWords: [],
  keks: [],
  tokens: [],
  twoFactorSecrets: [],
  photoKeys: [],
});

/** One test's collection; `save()` writes all of it so far (call it again after adding more). */
export class SecretsCollector {
  readonly record = emptySecrets();

  constructor(private readonly testInfo: TestInfo) {}

  add<K extends keyof SecretsRecord>(kind: K, ...values: SecretsRecord[K]): this {
    const list = this.record[kind] as unknown[];
    for (const value of values) {
      if (!list.some((known) => JSON.stringify(known) === JSON.stringify(value))) list.push(value);
    }
    return this;
  }

  /**
   * What a signed-in tab holds: the masterKey (session storage `encryptionKey`, unwrapped), the recovery
   * key it opens, the token (kv), a stashed KEK if one is there, and the KDF parameters of the local and
   * the server's key attributes for `password`.
   */
  async fromSignedInPage(page: Page, password: string): Promise<this> {
    const stored = await page.evaluate(() => ({
      encryptionKey: sessionStorage.getItem('encryptionKey'),
      keyEncryptionKey: sessionStorage.getItem('keyEncryptionKey'),
      keyAttributes: localStorage.getItem('keyAttributes'),
      srpAttributes: localStorage.getItem('srpAttributes'),
      user: localStorage.getItem('user'),
    }));
    if (!stored.encryptionKey || !stored.keyAttributes) throw new Error('the page is not signed in');
    const masterKey = await cryptoAPI.unstashKey(JSON.parse(stored.encryptionKey) as KeyStash);
    const keyAttributes = JSON.parse(stored.keyAttributes) as Parameters<typeof cryptoAPI.openToken>[1];
    this.add('masterKeys', masterKey);
    this.add('recoveryKeys', await cryptoAPI.recoveryKeyFromMasterKey(masterKey, keyAttributes));
    if (stored.keyEncryptionKey)
      this.add('keks', await cryptoAPI.unstashKey(JSON.parse(stored.keyEncryptionKey) as KeyStash));
    const kdf: KdfParamsRecord[] = [pickKdf(keyAttributes)];
    if (stored.srpAttributes) kdf.push(pickKdf(JSON.parse(stored.srpAttributes) as KdfParamsRecord));
    this.addPassword(password, kdf);
    const token = await readKV(page, 'token');
    if (typeof token === 'string') this.add('tokens', token);
    const user = stored.user ? (JSON.parse(stored.user) as { email?: string }) : {};
    if (user.email) this.add('emails', user.email);
    return this;
  }

  /**
   * A password and the parameters it was derived with. The password of the Argon2id test vector
   * (api.ts) is public and short enough to occur anywhere (it does, in PostgreSQL's configuration
   * files): it and its KEK are not secrets, so it is skipped.
   */
  addPassword(password: string, kdf: KdfParamsRecord[] = []): this {
    if (password === vectorPassword) return this;
    const entry = this.record.passwords.find((known) => known.password === password);
    if (!entry) {
      this.record.passwords.push({ password, kdf: [...kdf] });
    } else {
      for (const params of kdf) {
        if (!entry.kdf.some((known) => JSON.stringify(known) === JSON.stringify(params))) entry.kdf.push(params);
      }
    }
    return this;
  }

  async save(): Promise<void> {
    await mkdir(secretsFolder, { recursive: true });
    const name = `${this.testInfo.testId}-${String(this.testInfo.retry)}.json`;
    await writeFile(path.join(secretsFolder, name), JSON.stringify(this.record, null, 2));
  }
}

function pickKdf({ kekSalt, opsLimit, memLimit }: KdfParamsRecord): KdfParamsRecord {
  return { kekSalt, opsLimit, memLimit };
}

/** Everything the tests of this run collected, merged. */
export async function collectedSecrets(): Promise<SecretsRecord> {
  const merged = emptySecrets();
  let files: string[] = [];
  try {
    files = (await readdir(secretsFolder)).filter((name) => name.endsWith('.json'));
  } catch {
    // no test saved any
  }
  for (const file of files) {
    const record = JSON.parse(await readFile(path.join(secretsFolder, file), 'utf8')) as SecretsRecord;
    for (const kind of Object.keys(merged) as (keyof SecretsRecord)[]) {
      (merged[kind] as unknown[]).push(...((record[kind] as unknown[] | undefined) ?? []));
    }
  }
  return merged;
}
