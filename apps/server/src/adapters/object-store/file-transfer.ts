// Moving an object's bytes between a file and an HTTP body for the embedded store (embedded.ts), through
// buffers of a small pool that every transfer reuses. A download reads into pooled buffers because a read
// stream allocates a new one per read: V8 counts buffers as external memory, and in busy minutes every 64 MB
// of it started a full marking of the server's heap, which under perf took more CPU than the download itself.
// An upload's chunks are copied into pooled buffers as they arrive so that the disk gets writes of up to
// 1 MiB (not one per 64 KiB chunk) and the MD5 threads can read the bytes in shared memory
// (md5-threads.ts). Figures: docs/decisions.md "Transfer throughput, measured".
import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { finished, type Readable, type Writable } from 'node:stream';

import { startMd5Job } from './md5-threads.ts';

/** Bytes per pooled buffer: one disk write of a body, one read of a download. */
export const TRANSFER_BUFFER_BYTES = 1024 * 1024;

/** Buffers kept for reuse; more are allocated while more transfers run, and dropped when given back. */
const POOL_KEEPS = 16;

const pool: Buffer[] = [];

/** A pooled buffer; on shared memory, so that an MD5 thread reads it where it is (md5-threads.ts). */
function takeBuffer(): Buffer {
  return pool.pop() ?? Buffer.from(new SharedArrayBuffer(TRANSFER_BUFFER_BYTES));
}

function giveBack(buffer: Buffer): void {
  if (pool.length < POOL_KEEPS) pool.push(buffer);
}

/** The body ran past `limit` bytes (the caller answers IncompleteBody). */
export class BodyTooLong extends Error {}

/** Bytes gathered before a write starts at once; fewer are written when no more came for IDLE_WRITE_MS. */
const EAGER_WRITE_BYTES = TRANSFER_BUFFER_BYTES / 4;
const IDLE_WRITE_MS = 10;

/**
 * Writes the whole body into the file from `position` on and counts its MD5 and length; rejects with
 * BodyTooLong as soon as it passes `limit` bytes, or with the body's error. Two buffers in turn: one fills
 * while the other is being written, one write at a time; the body pauses while both are busy.
 */
export function receiveToFile(
  body: Readable,
  handle: FileHandle,
  position: number,
  limit: number,
): Promise<{ md5: Buffer; size: number }> {
  // A body that fits one buffer is hashed here: a worker's round trip would cost more than its MD5.
  const job = limit > TRANSFER_BUFFER_BYTES ? startMd5Job() : undefined;
  const hash = job ? undefined : createHash('md5');
  const buffers = [takeBuffer(), takeBuffer()];
  let filling = 0;
  let filled = 0;
  let size = 0;
  let writing: Promise<void> | undefined;
  /** The rest of a chunk that found both buffers busy. */
  let waiting: Buffer | undefined;
  let idle: NodeJS.Timeout | undefined;
  let failed = false;

  return new Promise<{ md5: Buffer; size: number }>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      job?.cancel();
      body.off('data', onData);
      // As a pipeline does: the rest of the body is not read.
      body.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const startWrite = () => {
      clearTimeout(idle);
      idle = undefined;
      const buffer = buffers[filling] as Buffer;
      const at = position;
      const length = filled;
      position += filled;
      filling ^= 1;
      filled = 0;
      // The buffer is filled again only once it is both on disk and hashed.
      const hashed = job?.update(buffer.buffer as SharedArrayBuffer, length);
      writing = Promise.all([writeFully(handle, buffer.subarray(0, length), at), hashed]).then(() => {
        writing = undefined;
        if (failed) return;
        const rest = waiting;
        waiting = undefined;
        if (rest && copyIn(rest)) body.resume();
        writeSoon();
      }, fail);
    };
    /** Starts a write when none is under way and enough is gathered, or soon when no more comes. */
    const writeSoon = () => {
      if (writing || failed || filled === 0) return;
      if (filled >= EAGER_WRITE_BYTES) startWrite();
      else idle ??= setTimeout(() => (writing ? undefined : startWrite()), IDLE_WRITE_MS);
    };
    /**
     * Copies as much of `chunk` as the buffers take: true when all of it; otherwise the rest waits for the
     * write under way and the body is paused.
     */
    const copyIn = (chunk: Buffer): boolean => {
      let offset = 0;
      while (offset < chunk.length) {
        if (filled === TRANSFER_BUFFER_BYTES) {
          if (writing) {
            waiting = chunk.subarray(offset);
            body.pause();
            return false;
          }
          startWrite();
        }
        const copied = chunk.copy(buffers[filling] as Buffer, filled, offset);
        filled += copied;
        offset += copied;
      }
      return true;
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        fail(new BodyTooLong());
        return;
      }
      hash?.update(chunk);
      if (copyIn(chunk)) writeSoon();
    };
    body.on('data', onData);
    finished(body, (error) => {
      if (error) {
        fail(error);
        return;
      }
      void (async () => {
        // A write under way may take a waiting chunk and start the next one.
        while (writing && !failed) await writing;
        if (filled > 0 && !failed) startWrite();
        await writing;
        if (failed) return;
        const md5 = job ? await job.digest() : (hash as Hash).digest();
        resolve({ md5, size });
      })().catch(fail);
    });
  }).finally(async () => {
    clearTimeout(idle);
    // A write may still hold a buffer after a failure: it goes back only once it is done.
    await writing?.catch(() => undefined);
    for (const buffer of buffers) giveBack(buffer);
  });
}

/** Writes all of `bytes` at `position` (a short write goes on from where it stopped). */
async function writeFully(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    if (bytesWritten === 0) throw new Error('the disk took none of the bytes');
    done += bytesWritten;
  }
}

/**
 * Writes bytes `start`…`end` (inclusive) of the file to `out` (not ended), through two buffers taken in
 * turn: one is read into while the other is being sent, and a buffer is read into again only once its
 * write has completed. Rejects when `out` closes before the last write completed.
 */
export async function sendRange(handle: FileHandle, start: number, end: number, out: Writable): Promise<void> {
  const buffers = [takeBuffer(), takeBuffer()];
  const sending = [Promise.resolve(), Promise.resolve()];
  let closed: () => void = () => undefined;
  const outClosed = new Promise<never>((_, reject) => {
    closed = () => reject(new Error('the response closed before the object was sent'));
    out.once('close', closed);
  });
  // Awaited only while a write is pending: this keeps its rejection from counting as unhandled.
  outClosed.catch(() => undefined);
  try {
    let position = start;
    for (let turn = 0; position <= end; turn ^= 1) {
      const buffer = buffers[turn] as Buffer;
      await Promise.race([sending[turn], outClosed]);
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - position + 1), position);
      if (bytesRead === 0) throw new Error('the object is shorter than its size');
      position += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      const sent = new Promise<void>((resolve, reject) => {
        out.write(chunk, (error) => (error ? reject(error) : resolve()));
      });
      sent.catch(() => undefined);
      sending[turn] = sent;
    }
    await Promise.race([Promise.all(sending), outClosed]);
    for (const buffer of buffers) giveBack(buffer);
  } finally {
    out.off('close', closed);
  }
}
