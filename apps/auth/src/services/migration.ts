// Google Authenticator's export, `otpauth-migration://offline?data=<base64 protobuf>` (the payload below,
// as its exports write it): reading the codes of one QR code of an export, and writing codes in
// that form so they can be moved to a phone. The protobuf is read and written field by field with
// @bufbuild/protobuf's wire reader and writer; the schema is small and fixed, so no generated code.
//
// MigrationPayload: 1 otp_parameters (repeated message), 2 version, 3 batch_size, 4 batch_index,
// 5 batch_id (the same on every QR code of one export). OtpParameters: 1 secret (raw bytes), 2 name
// (often "issuer:account"), 3 issuer, 4 algorithm (0 unspecified = SHA-1, 1 SHA-1, 2 SHA-256,
// 3 SHA-512, 4 MD5), 5 digits (0 unspecified = 6, 1 six, 2 eight), 6 type (0 unspecified = TOTP,
// 1 HOTP, 2 TOTP), 7 counter. There is no period: TOTP codes are 30 s. Unknown fields are skipped.
import { base64Decode, base64Encode, BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

import { base32Decode, base32Encode } from './base32.ts';
import { CodeParseError, codeURI, emptyDisplay, parseCodeURI, type ParseErrorKey } from './code-uri.ts';
import type { CodeData, OTPAlgorithm, OTPType } from './types.ts';

/** Which QR code of which export this is. */
export interface MigrationBatch {
  /** The same for every QR code of one export. */
  id: number;
  /** 0-based. */
  index: number;
  /** How many QR codes the export has (at least 1). */
  size: number;
}

/** An entry of the export that cannot be a code here, and why (a `codes` key with its values). */
export interface MigrationSkip {
  name: string;
  reasonKey: ParseErrorKey;
  values: Record<string, string>;
}

export interface MigrationPart {
  codes: CodeData[];
  batch: MigrationBatch;
  skipped: MigrationSkip[];
}

function invalid(): CodeParseError {
  return new CodeParseError('parse.migrationInvalid');
}

/**
 * The codes of one `otpauth-migration://` URI. The `data` parameter may be percent-encoded or not,
 * standard or URL-safe Base64, padded or not. A batch field the payload lacks reads as a single QR code
 * (id 0, index 0, size 1). Throws `CodeParseError` with `parse.migrationInvalid` when the text cannot be
 * read; entries that are not usable codes are listed in `skipped` instead.
 */
export function decodeMigrationURI(uri: string): MigrationPart {
  const bytes = payloadBytes(uri.trim());
  try {
    return readPayload(new BinaryReader(bytes));
  } catch (error) {
    if (error instanceof CodeParseError) throw error;
    throw invalid();
  }
}

function payloadBytes(text: string): Uint8Array {
  const match = /^otpauth-migration:\/\/[^?]*\?(.*)$/is.exec(text);
  const param = match?.[1]
    ?.split('&')
    .find((part) => part.startsWith('data='))
    ?.slice('data='.length);
  if (param === undefined) throw invalid();
  let base64: string;
  try {
    // Not form decoding: "+" is a Base64 digit here. A space is a "+" someone already form-decoded.
    base64 = decodeURIComponent(param).replaceAll(' ', '+');
  } catch {
    throw invalid();
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(base64.replace(/\s+/g, ''))) throw invalid();
  try {
    return base64Decode(base64);
  } catch {
    throw invalid();
  }
}

function readPayload(reader: BinaryReader): MigrationPart {
  const codes: CodeData[] = [];
  const skipped: MigrationSkip[] = [];
  const batch = { id: 0, index: 0, size: 1 };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1 && wireType === WireType.LengthDelimited) {
      const entry = readEntry(new BinaryReader(reader.bytes()));
      if ('code' in entry) codes.push(entry.code);
      else skipped.push(entry.skip);
    } else if (field >= 3 && field <= 5 && wireType === WireType.Varint) {
      const value = reader.int32();
      if (field === 3) batch.size = Math.max(1, value);
      if (field === 4) batch.index = value;
      if (field === 5) batch.id = value;
    } else {
      reader.skip(wireType, field);
    }
  }
  return { codes, batch, skipped };
}

const algorithms: Record<number, OTPAlgorithm> = { 0: 'sha1', 1: 'sha1', 2: 'sha256', 3: 'sha512' };
const digitCounts: Record<number, number> = { 0: 6, 1: 6, 2: 8 };
const types: Record<number, OTPType> = { 0: 'totp', 1: 'hotp', 2: 'totp' };

function readEntry(reader: BinaryReader): { code: CodeData } | { skip: MigrationSkip } {
  let secret: Uint8Array = new Uint8Array();
  let name = '';
  let issuer = '';
  let algorithm = 0;
  let digits = 0;
  let type = 0;
  let counter = 0n;
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    const delimited = wireType === WireType.LengthDelimited;
    const varint = wireType === WireType.Varint;
    if (field === 1 && delimited) secret = reader.bytes();
    else if (field === 2 && delimited) name = reader.string();
    else if (field === 3 && delimited) issuer = reader.string();
    else if (field === 4 && varint) algorithm = reader.int32();
    else if (field === 5 && varint) digits = reader.int32();
    else if (field === 6 && varint) type = reader.int32();
    else if (field === 7 && varint) counter = BigInt(reader.int64());
    else reader.skip(wireType, field);
  }
  issuer = issuer.trim();
  const account = (issuer !== '' && name.startsWith(`${issuer}:`) ? name.slice(issuer.length + 1) : name).trim();
  const skip = (reasonKey: ParseErrorKey, values: Record<string, string> = {}) => ({
    skip: { name: issuer && account ? `${issuer} (${account})` : issuer || account, reasonKey, values },
  });

  const otpType = types[type];
  if (otpType === undefined) return skip('parse.unsupportedType', { type: String(type) });
  const otpAlgorithm = algorithms[algorithm];
  if (otpAlgorithm === undefined) {
    return skip('parse.unsupportedAlgorithm', { algorithm: algorithm === 4 ? 'MD5' : String(algorithm) });
  }
  const digitCount = digitCounts[digits];
  if (digitCount === undefined) return skip('parse.invalidDigits', { value: String(digits) });
  if (secret.length === 0) return skip('parse.missingSecret');
  if (counter < 0n || counter > BigInt(Number.MAX_SAFE_INTEGER)) {
    return skip('parse.invalidCounter', { value: counter.toString() });
  }
  const data: CodeData = {
    type: otpType,
    issuer,
    account,
    secret: base32Encode(secret),
    algorithm: otpAlgorithm,
    digits: digitCount,
    period: 30,
    counter: otpType === 'hotp' ? Number(counter) : 0,
    display: emptyDisplay(),
    unknownParams: [],
  };
  // What reading the stored URI will give (a TOTP code of issuer "Steam" is Steam, as everywhere).
  return { code: parseCodeURI(codeURI(data)) };
}

/**
 * Google Authenticator export URIs of `codes`, `perQR` codes per URI (one QR code each), all with one
 * batch id. Codes Google Authenticator cannot hold (Steam, digits other than 6 or 8, TOTP periods other
 * than 30 s) are returned in `skipped` instead.
 */
export function encodeMigration(
  codes: readonly CodeData[],
  options: { batchId?: number; perQR?: number } = {},
): { uris: string[]; skipped: CodeData[] } {
  const perQR = Math.max(1, options.perQR ?? 10);
  const batchId = options.batchId ?? crypto.getRandomValues(new Int32Array(1))[0] ?? 0;
  const exportable = codes.filter(
    (code) =>
      code.type !== 'steam' && (code.digits === 6 || code.digits === 8) && (code.type === 'hotp' || code.period === 30),
  );
  const skipped = codes.filter((code) => !exportable.includes(code));
  const size = Math.max(1, Math.ceil(exportable.length / perQR));
  const uris = Array.from({ length: size }, (_, index) => {
    const writer = new BinaryWriter();
    for (const code of exportable.slice(index * perQR, (index + 1) * perQR)) {
      writer.tag(1, WireType.LengthDelimited).fork();
      writeEntry(writer, code);
      writer.join();
    }
    writer.tag(2, WireType.Varint).int32(1);
    writer.tag(3, WireType.Varint).int32(size);
    writer.tag(4, WireType.Varint).int32(index);
    writer.tag(5, WireType.Varint).int32(batchId);
    return `otpauth-migration://offline?data=${encodeURIComponent(base64Encode(writer.finish()))}`;
  });
  return { uris, skipped };
}

const algorithmNumbers: Record<OTPAlgorithm, number> = { sha1: 1, sha256: 2, sha512: 3 };

function writeEntry(writer: BinaryWriter, code: CodeData): void {
  writer.tag(1, WireType.LengthDelimited).bytes(base32Decode(code.secret));
  writer.tag(2, WireType.LengthDelimited).string(code.issuer ? `${code.issuer}:${code.account}` : code.account);
  writer.tag(3, WireType.LengthDelimited).string(code.issuer);
  writer.tag(4, WireType.Varint).int32(algorithmNumbers[code.algorithm]);
  writer.tag(5, WireType.Varint).int32(code.digits === 8 ? 2 : 1);
  writer.tag(6, WireType.Varint).int32(code.type === 'hotp' ? 1 : 2);
  if (code.type === 'hotp') writer.tag(7, WireType.Varint).int64(code.counter);
}
