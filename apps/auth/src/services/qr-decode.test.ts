/**
 * @jest-environment node
 */
// The QR reader on real PNG images (drawn here with the `qrcode` library), in Node with the wasm file
// of the installed zxing-wasm package: plain otpauth URIs, a Google Authenticator export, several codes
// in one image, an image without a code and bytes that are no image.
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

import QRCode from 'qrcode';

import { codeDataOf } from '../components/editor/testing/fixtures.ts';
import { collectMigration, isComplete, readCodeText, type MigrationCollection } from './code-import.ts';
import { encodeMigration } from './migration.ts';
import { decodeQRImage, QRReadError } from './qr-decode.ts';
import { provideQRReaderWasm } from './qr-reader.ts';

beforeAll(() => {
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  provideQRReaderWasm(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
});

async function qrPNG(text: string): Promise<Blob> {
  return new Blob([new Uint8Array(await QRCode.toBuffer(text, { errorCorrectionLevel: 'M', margin: 4 }))], {
    type: 'image/png',
  });
}

test('reads the otpauth URI of a QR code', async () => {
  const uri = 'otpauth://totp/ACME%20Co:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&digits=8';
  expect(await decodeQRImage(await qrPNG(uri))).toEqual([uri]);
});

test('reads the images of a two-image Google Authenticator export, which collect into one export', async () => {
  const codes = [
    codeDataOf({ issuer: 'Example', account: 'bob', secret: 'JBSWY3DPEHPK3PXP' }),
    codeDataOf({ issuer: 'Other', account: 'carol', secret: 'GEZDGNBVGY3TQOJQ', type: 'hotp', counter: 7 }),
  ];
  const { uris } = encodeMigration(codes, { batchId: -123456, perQR: 1 });
  expect(uris).toHaveLength(2);
  let collection: MigrationCollection | undefined;
  for (const uri of [...uris].reverse()) {
    const texts = await decodeQRImage(await qrPNG(uri));
    expect(texts).toEqual([uri]);
    const read = await readCodeText(texts[0]!);
    if (read.kind !== 'migration') throw new Error('not an export');
    collection = collectMigration(collection, read.part).collection;
  }
  expect(collection && isComplete(collection)).toBe(true);
  expect(
    collection?.parts.flatMap((part) => part?.codes ?? []).map((code) => [code.issuer, code.account, code.type]),
  ).toEqual([
    ['Example', 'bob', 'totp'],
    ['Other', 'carol', 'hotp'],
  ]);
});

test('reads every QR code of an image that holds several', async () => {
  const first = QRCode.create('otpauth://totp/one?secret=JBSWY3DPEHPK3PXP', { errorCorrectionLevel: 'M' });
  const second = QRCode.create('otpauth://totp/two?secret=GEZDGNBVGY3TQOJQ', { errorCorrectionLevel: 'M' });
  const scale = 6;
  const quiet = 4;
  const side = (size: number) => (size + 2 * quiet) * scale;
  const width = side(first.modules.size) + side(second.modules.size);
  const height = Math.max(side(first.modules.size), side(second.modules.size));
  const dark = (x: number, y: number): boolean => {
    const inSymbol = (symbol: typeof first, left: number) => {
      const mx = Math.floor((x - left) / scale) - quiet;
      const my = Math.floor(y / scale) - quiet;
      return mx >= 0 && my >= 0 && mx < symbol.modules.size && my < symbol.modules.size
        ? symbol.modules.get(my, mx) === 1
        : false;
    };
    return x < side(first.modules.size) ? inSymbol(first, 0) : inSymbol(second, side(first.modules.size));
  };
  const texts = await decodeQRImage(new Blob([greyPNG(width, height, dark)]));
  expect([...texts].sort()).toEqual([
    'otpauth://totp/one?secret=JBSWY3DPEHPK3PXP',
    'otpauth://totp/two?secret=GEZDGNBVGY3TQOJQ',
  ]);
});

test('an image without a code is a "no QR code" error', async () => {
  const blank = new Blob([greyPNG(200, 120, (x, y) => (x * 7 + y * 3) % 97 < 5)]);
  await expect(decodeQRImage(blank)).rejects.toEqual(new QRReadError('editor.qr_none'));
});

test('bytes that are no image are an "unreadable image" error', async () => {
  const text = new Blob([new TextEncoder().encode('otpauth://totp/not-an-image?secret=JBSWY3DPEHPK3PXP')]);
  const error: unknown = await decodeQRImage(text).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(QRReadError);
  expect((error as QRReadError).errorKey).toBe('editor.qr_unreadable');
});

/** A greyscale PNG (8 bits, no filter) with the pixels `dark` says are black. */
function greyPNG(width: number, height: number, dark: (x: number, y: number) => boolean): Uint8Array<ArrayBuffer> {
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows[y * (width + 1) + 1 + x] = dark(x, y) ? 0 : 255;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
