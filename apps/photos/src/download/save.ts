// Where a download goes. Where the browser has `showSaveFilePicker` (Chromium), the person picks the file and the
// stream is written into it as it comes, so nothing is held in memory. Elsewhere (Firefox, Safari) the app's
// download service worker answers a download URL with the stream (stream-download.ts). Only where there is no
// service worker either (a private window) is the stream gathered into a Blob (browsers may keep it on disk) and
// saved through a link, up to BLOB_DOWNLOAD_LIMIT (by the estimate before, by the bytes counted while it gathers);
// a larger download is refused with DownloadError('tooLarge'), which the page explains (docs/decisions.md, "The
// photos app"). Nothing is logged.

import { capBytes } from '@ente/shared/media/read-at-most.ts';
import { saveBlobAs } from '@ente/shared/save-file.ts';

import { streamThroughServiceWorker } from './stream-download.ts';

/** The largest download gathered in a Blob where no file can be picked (1 GiB). */
export const BLOB_DOWNLOAD_LIMIT = 1024 ** 3;

/** Why a download did not happen: the person cancelled (picker or cancel), or it is too large for this browser. */
export class DownloadError extends Error {
  override name = 'DownloadError';

  constructor(
    readonly reason: 'cancelled' | 'tooLarge',
    message: string = reason,
  ) {
    super(message);
  }
}

interface SaveFilePicker {
  (options: {
    suggestedName: string;
    types?: { description: string; accept: Record<string, string[]> }[];
  }): Promise<{ createWritable(): Promise<WritableStream<Uint8Array>> }>;
}

function filePicker(): SaveFilePicker | undefined {
  const picker = (globalThis as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  return typeof picker === 'function' ? picker.bind(globalThis) : undefined;
}

/** Whether downloads stream to a file the person picks here (else through the service worker, or a Blob). */
export function canStreamToFile(): boolean {
  return filePicker() !== undefined;
}

const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

export interface SaveOptions {
  /** The file name offered (already made safe). */
  name: string;
  /** The picker's file type (a ZIP); absent for an original, whose extension is the title's. */
  type?: { description: string; mime: string; extension: string };
  /** What the download is expected to weigh, for the Blob limit. */
  estimatedBytes: number;
  signal?: AbortSignal;
}

/**
 * Saves what `open` streams under `name`. Call it straight from the person's click (the file picker needs that
 * gesture): the picker comes first, the stream is opened only once a place to write is known.
 */
export async function saveStream(open: () => Promise<ReadableStream<Uint8Array>>, options: SaveOptions): Promise<void> {
  const { name, type, estimatedBytes, signal } = options;
  const picker = filePicker();
  try {
    if (picker) {
      const handle = await picker({
        suggestedName: name,
        ...(type ? { types: [{ description: type.description, accept: { [type.mime]: [type.extension] } }] } : {}),
      });
      const writable = await handle.createWritable();
      let stream: ReadableStream<Uint8Array>;
      try {
        stream = await open();
      } catch (e) {
        // Nothing was written: the picked file is left as it was.
        await writable.abort(e).catch(() => undefined);
        throw e;
      }
      // An abort (cancel, or a failed original) aborts the writable: Chromium then discards the partial file.
      await stream.pipeTo(writable, signal ? { signal } : {});
      return;
    }
    if (await streamThroughServiceWorker(open, { name, signal })) return;
    if (estimatedBytes > BLOB_DOWNLOAD_LIMIT) throw new DownloadError('tooLarge');
    // The estimate is the server's word: the bytes themselves are counted too, and the download errors past the cap.
    const gathered = (await open()).pipeThrough(
      capBytes(BLOB_DOWNLOAD_LIMIT, () => new DownloadError('tooLarge')),
      signal ? { signal } : {},
    );
    const blob = await new Response(gathered).blob();
    signal?.throwIfAborted();
    saveBlobAs(type ? new Blob([blob], { type: type.mime }) : blob, name);
  } catch (e) {
    if (isAbort(e) || (signal?.aborted && e === signal.reason)) throw new DownloadError('cancelled');
    throw e;
  }
}
