// What every importer of another app's export returns (docs/product.md, import and export): the codes it
// could read, as the vault's CodeData, and what it could not, each with a reason the preview shows.
import { Failure } from '@ente/shared/failure.ts';

import type { CodeData } from '../types.ts';

/** The formats we read; detected from the content, never from the file name alone. */
export type ImportFormat =
  | 'otpauth-list'
  | 'ente-plain'
  | 'ente-encrypted'
  | 'aegis'
  | 'aegis-encrypted'
  | '2fas'
  | '2fas-encrypted'
  | 'bitwarden-json'
  | 'bitwarden-csv'
  | 'google-migration'
  | 'proton'
  | 'proton-encrypted'
  | 'andotp'
  | 'andotp-encrypted'
  | 'freeotp-plus';

/** Why an entry of the file is not imported (a key of the `codes` namespace's `import.skip` section). */
export type SkipReason =
  | 'unsupportedType' // mOTP, Yandex, …
  | 'unsupportedAlgorithm' // MD5, SHA-384, …
  | 'unsupportedDigits'
  | 'badSecret'
  | 'badPeriod'
  | 'badCounter'
  | 'malformed'; // the entry's shape is not what the format says

export interface SkippedEntry {
  /** What identifies the entry to a person: issuer and account as the file has them (may be empty). */
  issuer: string;
  account: string;
  reason: SkipReason;
  /** The offending value, when there is one (the type or algorithm name, the digits…), never a secret. */
  detail?: string;
}

export interface ImportResult {
  format: ImportFormat;
  codes: CodeData[];
  skipped: SkippedEntry[];
}

/**
 * The file is encrypted and needs a password (`needed`: the password step asks for it), or the one given
 * does not open it (`wrong`).
 */
export class ImportPasswordError extends Failure<'import:password.intro' | 'import:password.wrong'> {
  constructor(readonly kind: 'needed' | 'wrong') {
    super(kind === 'needed' ? 'import:password.intro' : 'import:password.wrong', {
      message: kind === 'needed' ? 'this file needs its password' : 'the password does not open this file',
    });
    this.name = 'ImportPasswordError';
  }
}

/** The content is not a file of any format we read, or is damaged (truncated JSON, wrong shapes…). */
export class ImportFormatError extends Failure<'import:error.format'> {
  constructor(readonly detail: string) {
    super('import:error.format', { message: `not an export we can read: ${detail}` });
    this.name = 'ImportFormatError';
  }
}

/** The file is larger than any real export: refused before it is read. */
export class ImportSizeError extends Failure<'import:error.size'> {
  constructor(readonly limitBytes: number) {
    super('import:error.size', {
      values: { size: String(Math.floor(limitBytes / 1024 / 1024)) },
      message: `the file is larger than ${String(limitBytes)} bytes`,
    });
    this.name = 'ImportSizeError';
  }
}

/**
 * The libsodium steps of the formats that need them, through the crypto worker (`CryptoAPI`'s methods of
 * the same names). Errors are recognised by name, since they may cross a worker boundary.
 */
export interface ImportCrypto {
  decryptEnteExport(
    password: string,
    envelope: {
      kdfParams: { memLimit: number; opsLimit: number; salt: string };
      encryptedData: string;
      encryptionNonce: string;
    },
  ): Promise<string>;
  argon2idKey(password: string, salt: string, opsLimit: number, memLimit: number): Promise<string>;
}

/** Options every parser takes. */
export interface ImportOptions {
  password?: string;
  /** Where Argon2id and secretstream run; the tab's crypto worker when absent. */
  crypto?: ImportCrypto;
}

/** The crypto of `options`, or the crypto worker's. */
export async function importCrypto(options: ImportOptions): Promise<ImportCrypto> {
  if (options.crypto) return options.crypto;
  const { cryptoWorker } = await import('@ente/crypto/client.ts');
  return cryptoWorker();
}
