// A real S3-compatible server for tests: s3rver (a dev dependency) in a child process of its own, on a
// free loopback port, keeping its files in a temporary folder removed when it stops, with one bucket
// whose CORS rules the test chooses. s3rver accepts any request signed with the access key "S3RVER" and
// checks neither V4 signatures nor Content-MD5: the integrity checks are tested on the embedded store.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import type { S3StoreOptions } from '../adapters/object-store/s3.ts';

export interface S3TestServer {
  /** http://127.0.0.1:PORT */
  endpoint: string;
  /** Options for S3ObjectStore.open on its bucket (path-style URLs). */
  storeOptions: S3StoreOptions;
  stop(): Promise<void>;
}

/** CORS rules a photos app needs: PUT with Content-MD5 from `origin`, ETag exposed. */
export function photosCors(origin: string): string {
  return `<CORSConfiguration><CORSRule><AllowedOrigin>${origin}</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod>
    <AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule></CORSConfiguration>`;
}

/** Runs in the child: starts s3rver as its arguments say (folder, bucket, CORS XML) and prints its port. */
const childScript = `
const S3rver = require('s3rver');
const [directory, bucket, cors] = process.argv.slice(1);
const configs = cors ? [cors] : [];
new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs }],
}).run().then(
  (address) => console.log('listening ' + address.port),
  (error) => { console.error(error); process.exit(1); },
);
process.on('disconnect', () => process.exit(0));
`;

export async function startS3Server(options: { bucket?: string; cors?: string } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'photos';
  const directory = await mkdtemp(path.join(os.tmpdir(), 'ente-s3rver-'));
  const child = spawn(process.execPath, ['-e', childScript, directory, bucket, options.cors ?? ''], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const stop = async () => {
    await exited(child);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout ?? process.stdin });
      lines.on('line', (line) => {
        const match = /^listening (\d+)$/.exec(line);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`s3rver exited (${String(code)}) before listening`)));
    });
    const endpoint = `http://127.0.0.1:${String(port)}`;
    return {
      endpoint,
      storeOptions: {
        endpoint,
        region: 'us-east-1',
        bucket,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
