// Reading a file (or pasted text) the user wants to import: the entry point of the import dialog, loaded
// only when it opens. Images are QR-decoded in the QR worker (a Google Authenticator export, or a code's
// QR); everything else is detected and read in the import worker (import.worker.ts), which asks the tab's
// crypto worker for Argon2id and secretstream. In Node and tests it all runs in-process.
import { decodeQRImage, QRReadError } from '../qr-decode.ts';
import type { ImportWorkerAPI } from './import.worker.ts';
import { maxImportBytes } from './otp-entry.ts';
import { outcomeOf, resultOf, type ImportOutcome } from './outcome.ts';
import { ImportFormatError, ImportSizeError, type ImportCrypto, type ImportResult } from './types.ts';

export { maxImportBytes };

export interface ReadImportOptions {
  password?: string;
  /** Aborting stops the worker's work (a new worker serves the next file). */
  signal?: AbortSignal;
}

/** Reads an export; throws ImportPasswordError, ImportFormatError or ImportSizeError (types.ts). */
export async function readImport(input: Blob | string, options: ReadImportOptions = {}): Promise<ImportResult> {
  const content = await contentOf(input);
  options.signal?.throwIfAborted();
  if (typeof Worker === 'undefined' || typeof window === 'undefined') {
    const { parseImport } = await import('./detect.ts');
    return resultOf(await outcomeOf(() => parseImport(content, { password: options.password })));
  }
  return resultOf(await inWorker(content, options));
}

async function contentOf(input: Blob | string): Promise<string | Uint8Array> {
  if (typeof input === 'string') {
    if (input.length > maxImportBytes) throw new ImportSizeError(maxImportBytes);
    return input;
  }
  if (input.size > maxImportBytes) throw new ImportSizeError(maxImportBytes);
  const bytes = new Uint8Array(await input.arrayBuffer());
  if (!isImage(bytes)) return bytes;
  try {
    return (await decodeQRImage(input)).join('\n');
  } catch (error) {
    if (error instanceof QRReadError) throw new ImportFormatError('the image holds no QR code that can be read');
    throw error;
  }
}

/** PNG, JPEG, GIF, WebP and BMP by their first bytes. */
function isImage(bytes: Uint8Array): boolean {
  const startsWith = (...prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  return (
    startsWith(0x89, 0x50, 0x4e, 0x47) ||
    startsWith(0xff, 0xd8, 0xff) ||
    ascii(0, 4) === 'GIF8' ||
    (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') ||
    ascii(0, 2) === 'BM'
  );
}

interface ImportWorker {
  instance: Worker;
  api: ImportWorkerAPI;
  /** Rejects when the worker dies (comlink would leave the call pending for ever). */
  failed: Promise<never>;
}

let worker: Promise<ImportWorker> | undefined;

async function inWorker(content: string | Uint8Array, options: ReadImportOptions): Promise<ImportOutcome> {
  const current = importWorker();
  const { instance, api, failed } = await current;
  const { proxy } = await import('comlink');
  const aborted = new Promise<never>((_, reject) => {
    options.signal?.addEventListener('abort', () => {
      // The worker may be deep in a key derivation: end it, the next file gets a new one.
      if (worker === current) worker = undefined;
      instance.terminate();
      reject(new DOMException('the import was cancelled', 'AbortError'));
    });
  });
  aborted.catch(() => undefined);
  return Promise.race([api.read(content, options.password, proxy(await tabCrypto())), failed, aborted]);
}

/** The tab's crypto worker, as the import worker sees it. */
async function tabCrypto(): Promise<ImportCrypto> {
  const { cryptoWorker } = await import('@ente/crypto/client.ts');
  const crypto = await cryptoWorker();
  return {
    decryptEnteExport: (password, envelope) => crypto.decryptEnteExport(password, envelope),
    argon2idKey: (password, salt, opsLimit, memLimit) => crypto.argon2idKey(password, salt, opsLimit, memLimit),
  };
}

function importWorker(): Promise<ImportWorker> {
  worker ??= (async () => {
    const { wrap } = await import('comlink');
    const instance = new Worker(new URL('./import.worker.ts', import.meta.url), {
      type: 'module',
      name: 'ente-import',
    });
    const failed = new Promise<never>((_, reject) => {
      const fail = () => {
        worker = undefined;
        instance.terminate();
        reject(new Error('the import worker failed'));
      };
      instance.addEventListener('error', fail);
      instance.addEventListener('messageerror', fail);
    });
    failed.catch(() => undefined);
    return { instance, api: wrap<ImportWorkerAPI>(instance), failed };
  })();
  return worker;
}
