// Photos benchmark (transfer, diff, two processes): the built API server as its own process, driven over
// HTTP as a photos client drives it (random bytes stand in for ciphertext: the server never opens it).
// Prints JSON.
//
//   node bench/photos.mjs [--part transfer,diff,two] [--stores embedded,s3] [--size-mib 1024] [--part-mib 20] [--rounds 3]
//                         [--files 10000] [--walks 10] [--clients 50] [--duration 20] [--two-size-mib 256]
//                         (npm run bench:photos --workspace @ente/bench)
//
// 1. transfer: a --size-mib object uploaded through the real API (POST /files/multipart-upload-url with the
//    parts' MD5s, the parts PUT 4 at a time with Content-MD5, CompleteMultipartUpload POSTed to completeURL,
//    POST /files) and downloaded back (the 307 of GET /files/download/:id followed, streamed, MD5 checked),
//    on the embedded store and on an s3rver process; against `dd` writing and reading as much on the same
//    disk, with the server's (and s3rver's) VmRSS sampled every 100 ms. The bytes are an AES-256-CTR
//    keystream of a fixed key: any part can be generated again from its offset, so neither the MD5 pass nor
//    the upload keeps more than a chunk of it. --rounds times, each against a dd of its own moment (the disk
//    here drifts by a third within minutes); the targets are judged on the medians of the rounds.
// 2. diff: an album of --files files (tiny objects, uploaded concurrently), walked with
//    GET /collections/v2/diff page by page (2,500 a page) --walks times, then the same pages requested by
//    --clients keep-alive clients for --duration seconds.
// 3. two: two server processes on one PostgreSQL (DATABASE_URL, or a throwaway cluster from
//    scripts/postgres.mjs) and one s3rver: a file uploaded through one is found in the diff of the other and
//    downloaded through it, bytes checked.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { startPostgres } from '../scripts/postgres.mjs';
import { randomKeyAttributes } from './accounts.mjs';
import { benchSettings } from './config.mjs';
import { positiveOption, round } from './numbers.mjs';
import { builtServer, startProcess } from './process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../apps/server');
const { databaseUrl, serverLogLevel } = benchSettings;
const MiB = 1024 * 1024;
const MB = 1e6;
const clientPackage = 'io.ente.photos.web';
const ottDomain = '@photos-bench.example.org';
const ottCode = '123456';
const photosOrigin = 'http://localhost:3000';
const pageSize = 2500;

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'transfer,diff,two' },
    stores: { type: 'string', default: 'embedded,s3' },
    'size-mib': { type: 'string', default: '1024' },
    'part-mib': { type: 'string', default: '20' },
    files: { type: 'string', default: '10000' },
    walks: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    clients: { type: 'string', default: '50' },
    duration: { type: 'string', default: '20' },
    'two-size-mib': { type: 'string', default: '256' },
    profile: { type: 'boolean', default: false },
  },
});
const positive = (name) => positiveOption(values, name);
const parts = values.part.split(',');
const stores = values.stores.split(',');
for (const part of parts) if (!['transfer', 'diff', 'two'].includes(part)) throw new Error(`unknown part ${part}`);
for (const store of stores) if (!['embedded', 's3'].includes(store)) throw new Error(`unknown store ${store}`);
const sizeBytes = positive('size-mib') * MiB;
const partBytes = positive('part-mib') * MiB;
const fileCount = positive('files');
const walks = positive('walks');
const rounds = positive('rounds');
const clients = positive('clients');
const durationSeconds = positive('duration');
const twoSizeBytes = positive('two-size-mib') * MiB;

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
const serverEntry = builtServer(serverRoot);
const cleanUps = new Set();
/** What the current scratch started (withScratch stops it at its end). */
let ownedNow = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    for (const cleanUp of [...cleanUps].reverse()) await cleanUp().catch(() => {});
    process.exit(130);
  });
}

// 1. Transfer.

async function transferBenchmark(storeKind) {
  log(`transfer: ${storeKind} store, ${sizeBytes / MiB} MiB in parts of ${partBytes / MiB} MiB, ${rounds} rounds`);
  return withScratch('ente-bench-photos-', async (dataDir) => {
    const s3 = storeKind === 's3' ? await owned(startS3rver(dataDir)) : undefined;
    const server = await owned(startServer({ dataDir, s3 }));
    const user = await signUp(server.url);
    const album = await createAlbum(server.url, user);

    const md5From = performance.now();
    const digests = await partDigests(sizeBytes, partBytes);
    const md5Seconds = (performance.now() - md5From) / 1000;

    // Each round measures the disk right before its own transfers: this machine's disk speed drifts by a
    // third within minutes, so a ratio is only meaningful against a dd of the same moment.
    const each = [];
    for (let i = 0; i < rounds; i++) each.push(await transferRound(server, s3, user, album, dataDir, digests));
    const median = (pick) => round(percentile(each.map(pick), 50));
    const upload = median((r) => r.upload.ofRawWrite);
    const download = median((r) => Math.max(r.download.ofRawRead, r.downloadBytesCountedOnly.ofRawRead));
    const growth = Math.max(
      ...each.flatMap((r) => [r.upload, r.download, r.downloadBytesCountedOnly].map((t) => t.server.rssGrowthMB)),
    );
    return {
      store: storeKind === 's3' ? 's3rver (its own process, bytes go from the client to it)' : 'embedded',
      sizeMiB: sizeBytes / MiB,
      partMiB: partBytes / MiB,
      parts: digests.parts.length,
      partsAtOnce: 4,
      benchMd5PassMBs: round(sizeBytes / MB / md5Seconds),
      rounds: each,
      medians: {
        uploadOfRawWrite: upload,
        downloadOfRawRead: download,
        uploadMBs: median((r) => r.upload.MBs),
        downloadMBs: median((r) => Math.max(r.download.MBs, r.downloadBytesCountedOnly.MBs)),
        serverRssGrowthMBMax: growth,
      },
      targets: {
        throughput: '≥ 0.8 of the raw disk speed (median of the rounds)',
        memoryGrowthMB: '< 100',
        met: upload >= 0.8 && download >= 0.8 && growth < 100,
      },
    };
  });
}

/** One dd, then one upload, download and bytes-only download of the object, each with the server's usage. */
async function transferRound(server, s3, user, album, dataDir, digests) {
  const disk = rawDisk(dataDir, sizeBytes);
  const upload = await measured([server.pid, s3?.pid], () => uploadMultipart(server.url, user, digests, sizeBytes));
  const thumbnail = await uploadSingle(server.url, user, randomBytes(2048));
  const file = await confirmFile(server.url, user, album, upload.value.objectKey, sizeBytes, thumbnail);
  const download = await measured([server.pid, s3?.pid], () => downloadFile(server.url, user, file.id));
  if (download.value.bytes !== sizeBytes || download.value.md5 !== digests.whole) {
    throw new Error(`the download is not the upload (${download.value.bytes} bytes)`);
  }
  // Once more with the bytes only counted: the client's MD5 can be slower than the server's streaming.
  const counted = await measured([server.pid, s3?.pid], () => downloadFile(server.url, user, file.id, false));
  if (counted.value.bytes !== sizeBytes) throw new Error(`the second download has ${counted.value.bytes} bytes`);

  const uploadMBs = sizeBytes / MB / upload.seconds;
  const downloadMBs = sizeBytes / MB / download.seconds;
  const countedMBs = sizeBytes / MB / counted.seconds;
  return {
    rawDisk: disk,
    upload: {
      MBs: round(uploadMBs),
      ofRawWrite: round(uploadMBs / disk.writeMBs),
      seconds: round(upload.seconds),
      partsMBs: round(sizeBytes / MB / upload.value.partsSeconds),
      partsSeconds: round(upload.value.partsSeconds),
      completeSeconds: round(upload.value.completeSeconds),
      ...upload.usage,
    },
    download: {
      MBs: round(downloadMBs),
      ofRawRead: round(downloadMBs / disk.readMBs),
      md5Checked: true,
      ...download.usage,
    },
    downloadBytesCountedOnly: {
      MBs: round(countedMBs),
      ofRawRead: round(countedMBs / disk.readMBs),
      ...counted.usage,
    },
  };
}

/**
 * dd writing `bytes` of zeros into `folder` (fdatasync before it ends), then reading that file back with
 * O_DIRECT (the page cache cannot be dropped here; direct reads skip it), or through the cache when the
 * file system refuses O_DIRECT.
 */
function rawDisk(folder, bytes) {
  const file = path.join(folder, 'dd-test');
  const count = String(bytes / (8 * MiB));
  const dd = (args) => {
    const from = performance.now();
    const run = spawnSync('dd', args, { encoding: 'utf8' });
    if (run.status !== 0) return undefined;
    return { MBs: round(bytes / MB / ((performance.now() - from) / 1000)), says: run.stderr.trim().split('\n').pop() };
  };
  const write = dd(['if=/dev/zero', `of=${file}`, 'bs=8M', `count=${count}`, 'conv=fdatasync']);
  if (!write) throw new Error('dd could not write the test file');
  let read = dd([`if=${file}`, 'of=/dev/null', 'bs=8M', 'iflag=direct']);
  const direct = read !== undefined;
  read ??= dd([`if=${file}`, 'of=/dev/null', 'bs=8M']);
  rmSync(file, { force: true });
  const fileSystem = statfsSync(folder);
  return {
    writeMBs: write.MBs,
    readMBs: read.MBs,
    write: `dd if=/dev/zero bs=8M count=${count} conv=fdatasync: ${write.says}`,
    read: direct
      ? `dd bs=8M iflag=direct of the file just written (O_DIRECT: not from the page cache): ${read.says}`
      : `dd bs=8M of the file just written (no O_DIRECT here: partly from the page cache): ${read.says}`,
    fileSystemType: `0x${fileSystem.type.toString(16)}`,
  };
}

/** Each part's MD5 (base64) and the whole object's (hex), from the keystream, one chunk at a time. */
async function partDigests(total, partLength) {
  const whole = createHash('md5');
  const parts = [];
  for (let offset = 0; offset < total; offset += partLength) {
    const part = createHash('md5');
    for await (const chunk of keystream(offset, Math.min(partLength, total - offset))) {
      part.update(chunk);
      whole.update(chunk);
    }
    parts.push({ offset, length: Math.min(partLength, total - offset), md5: part.digest('base64') });
  }
  return { parts, whole: whole.digest('hex') };
}

const keystreamKey = createHash('sha256').update('ente photos bench').digest();
const zeros = Buffer.alloc(MiB);

/** Bytes `offset`…`offset + length` of the benchmark's object (offset a multiple of 16), 1 MiB at a time. */
async function* keystream(offset, length) {
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(offset / 16), 8);
  const cipher = createCipheriv('aes-256-ctr', keystreamKey, iv);
  for (let done = 0; done < length; done += MiB) {
    const size = Math.min(MiB, length - done);
    yield cipher.update(size === MiB ? zeros : zeros.subarray(0, size));
  }
}

/** The multipart upload as a client makes it: URLs for the MD5s, parts 4 at a time, then the completion. */
async function uploadMultipart(serverUrl, user, digests, total) {
  const answer = await call(serverUrl, 'POST', '/files/multipart-upload-url', {
    token: user.token,
    body: { contentLength: total, partLength: partBytes, partMd5s: digests.parts.map((part) => part.md5) },
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const from = performance.now();
  const etags = [];
  let next = 0;
  const lane = async () => {
    while (next < digests.parts.length) {
      const index = next++;
      const part = digests.parts[index];
      const put = await send(answer.partURLs[index], {
        method: 'PUT',
        agent,
        headers: { 'Content-MD5': part.md5, 'Content-Length': String(part.length) },
        body: keystream(part.offset, part.length),
      });
      if (put.status !== 200) throw new Error(`part ${index + 1}: ${put.status} ${put.text}`);
      etags[index] = put.headers.etag;
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  const partsSeconds = (performance.now() - from) / 1000;
  const xml = etags.map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${etag}</ETag></Part>`);
  const done = await send(answer.completeURL, {
    method: 'POST',
    agent,
    headers: { 'Content-Type': 'text/xml' },
    body: `<CompleteMultipartUpload>${xml.join('')}</CompleteMultipartUpload>`,
  });
  if (done.status !== 200) throw new Error(`completion: ${done.status} ${done.text}`);
  agent.destroy();
  return {
    objectKey: answer.objectKey,
    partsSeconds,
    completeSeconds: (performance.now() - from) / 1000 - partsSeconds,
  };
}

/** One small object through POST /files/upload-url and its PUT: its key. */
async function uploadSingle(serverUrl, user, bytes, agent) {
  const md5 = createHash('md5').update(bytes).digest('base64');
  const answer = await call(serverUrl, 'POST', '/files/upload-url', {
    token: user.token,
    body: { contentLength: bytes.length, contentMD5: md5 },
    agent,
  });
  const put = await send(answer.url, {
    method: 'PUT',
    agent,
    headers: { 'Content-MD5': md5, 'Content-Length': String(bytes.length) },
    body: bytes,
  });
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${put.text}`);
  return { objectKey: answer.objectKey, size: bytes.length };
}

/** POST /files for two uploaded objects (keys, headers and metadata: random bytes of the protocol's sizes). */
function confirmFile(serverUrl, user, album, objectKey, size, thumbnail, agent) {
  return call(serverUrl, 'POST', '/files', {
    token: user.token,
    agent,
    body: {
      collectionID: album.id,
      encryptedKey: b64(48),
      keyDecryptionNonce: b64(24),
      file: { objectKey, decryptionHeader: b64(24), size },
      thumbnail: { objectKey: thumbnail.objectKey, decryptionHeader: b64(24), size: thumbnail.size },
      metadata: { encryptedData: b64(256), decryptionHeader: b64(24) },
    },
  });
}

/** GET /files/download/:id, its 307 followed and the object streamed (through MD5 when `check`): bytes and digest. */
async function downloadFile(serverUrl, user, fileID, check = true) {
  const redirect = await send(`${serverUrl}/files/download/${fileID}`, {
    method: 'GET',
    headers: { 'X-Client-Package': clientPackage, 'X-Auth-Token': user.token },
  });
  if (redirect.status !== 307) throw new Error(`download: ${redirect.status} ${redirect.text}`);
  const hash = createHash('md5');
  let bytes = 0;
  await new Promise((resolve, reject) => {
    http
      .get(redirect.headers.location, (response) => {
        if (response.statusCode !== 200) reject(new Error(`object GET: ${response.statusCode}`));
        response.on('data', (chunk) => {
          bytes += chunk.length;
          if (check) hash.update(chunk);
        });
        response.on('end', resolve);
        response.on('error', reject);
      })
      .on('error', reject);
  });
  return { bytes, md5: hash.digest('hex') };
}

// 2. Collection diff.

async function diffBenchmark() {
  log(`diff: an album of ${fileCount} files`);
  return withScratch('ente-bench-photos-diff-', async (dataDir) => {
    const server = await owned(startServer({ dataDir }));
    const user = await signUp(server.url);
    const album = await createAlbum(server.url, user);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const setupFrom = performance.now();
    let made = 0;
    let confirmed = 0;
    const lane = async () => {
      while (made < fileCount) {
        made++;
        const [file, thumbnail] = await Promise.all([
          uploadSingle(server.url, user, randomBytes(64), agent),
          uploadSingle(server.url, user, randomBytes(32), agent),
        ]);
        await confirmFile(server.url, user, album, file.objectKey, file.size, thumbnail, agent);
        if (++confirmed % 1000 === 0) log(`  ${confirmed} files`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, lane));
    agent.destroy();
    const setupSeconds = (performance.now() - setupFrom) / 1000;

    // Full walks, one client: every page's latency; the cursors of the first walk are the load's pages.
    const walkAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const pageMs = [];
    const walkMs = [];
    let cursors;
    for (let walk = 0; walk < walks; walk++) {
      const walked = await walkDiff(server.url, user, album, walkAgent);
      if (walked.files !== fileCount) throw new Error(`a walk found ${walked.files} files, not ${fileCount}`);
      pageMs.push(...walked.pageMs);
      walkMs.push(walked.pageMs.reduce((sum, ms) => sum + ms, 0));
      cursors ??= walked.cursors;
    }
    walkAgent.destroy();

    const load = await diffLoad(server, user, album, cursors);
    return {
      files: fileCount,
      setupSeconds: round(setupSeconds),
      pagesPerWalk: cursors.length,
      walks,
      pageMs: {
        p50: round(percentile(pageMs, 50)),
        p99: round(percentile(pageMs, 99)),
        max: round(Math.max(...pageMs)),
      },
      walkMs: { p50: round(percentile(walkMs, 50)), max: round(Math.max(...walkMs)) },
      pageBytes: load.pageBytes,
      concurrent: load.summary,
      targets: { p99Ms: '< 200', met: percentile(pageMs, 99) < 200 && load.summary.ms.p99 < 200 },
    };
  });
}

/** One full walk of the album's diff: each page's latency and cursor, and the files seen. */
async function walkDiff(serverUrl, user, album, agent) {
  const seen = new Set();
  const pageMs = [];
  const cursors = [];
  let sinceTime = 0;
  for (;;) {
    cursors.push(sinceTime);
    const from = performance.now();
    const page = await call(serverUrl, 'GET', `/collections/v2/diff?collectionID=${album.id}&sinceTime=${sinceTime}`, {
      token: user.token,
      agent,
    });
    pageMs.push(performance.now() - from);
    for (const file of page.diff) seen.add(file.id);
    if (page.diff.length > pageSize) throw new Error(`a page of ${page.diff.length}`);
    if (!page.hasMore) return { files: seen.size, pageMs, cursors };
    sinceTime = Math.max(...page.diff.map((file) => file.updationTime));
  }
}

/**
 * `clients` keep-alive connections, each requesting the walk's pages in turn (starting at a page of its own)
 * for the duration; bodies are read and counted, not parsed (the benchmark shares the cores with the server).
 */
async function diffLoad(server, user, album, cursors) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const headers = { 'X-Client-Package': clientPackage, 'X-Auth-Token': user.token };
  const latencies = [];
  const pageBytes = [];
  let errors = 0;
  const usage = usageMeter([server.pid]);
  const from = performance.now();
  const until = from + durationSeconds * 1000;
  const client = async (index) => {
    for (let request = index; performance.now() < until; request++) {
      const sinceTime = cursors[request % cursors.length];
      const started = performance.now();
      const answer = await send(`${server.url}/collections/v2/diff?collectionID=${album.id}&sinceTime=${sinceTime}`, {
        method: 'GET',
        agent,
        headers,
        countOnly: true,
      });
      if (answer.status !== 200) errors++;
      latencies.push(performance.now() - started);
      pageBytes[request % cursors.length] = answer.bytes;
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  const seconds = (performance.now() - from) / 1000;
  agent.destroy();
  return {
    pageBytes,
    summary: {
      clients,
      seconds: round(seconds),
      requests: latencies.length,
      errors,
      requestsPerSecond: round(latencies.length / seconds),
      ms: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
      ...usage.stop(),
    },
  };
}

// 3. Two API processes on one PostgreSQL and one S3 server.

async function twoProcessBenchmark() {
  log('two processes: one PostgreSQL, one s3rver');
  return withScratch('ente-bench-photos-two-', async (dataDir) => {
    const postgres = databaseUrl ? undefined : await owned(startPostgres({ log }));
    const database = databaseUrl ?? postgres.url;
    const s3 = await owned(startS3rver(dataDir));
    const first = await owned(startServer({ dataDir, s3, database }));
    const second = await owned(startServer({ dataDir, s3, database }));
    const user = await signUp(first.url);
    const album = await createAlbum(first.url, user);
    // The second process answers the empty album first (and may cache "nothing new" for it).
    const before = await call(second.url, 'GET', `/collections/v2/diff?collectionID=${album.id}&sinceTime=0`, {
      token: user.token,
    });
    if (before.diff.length !== 0) throw new Error('the new album is not empty');

    const total = twoSizeBytes;
    const digests = await partDigests(total, partBytes);
    const uploadFrom = performance.now();
    const upload = await uploadMultipart(first.url, user, digests, total);
    const thumbnail = await uploadSingle(first.url, user, randomBytes(2048));
    const file = await confirmFile(first.url, user, album, upload.objectKey, total, thumbnail);
    const uploadSeconds = (performance.now() - uploadFrom) / 1000;

    const seenFrom = performance.now();
    let found;
    while (!found) {
      const page = await call(second.url, 'GET', `/collections/v2/diff?collectionID=${album.id}&sinceTime=0`, {
        token: user.token,
      });
      found = page.diff.find((entry) => entry.id === file.id);
      if (!found && performance.now() - seenFrom > 10_000) throw new Error('the second process never saw the file');
      if (!found) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seenMs = performance.now() - seenFrom;
    if (found.info?.fileSize !== total) throw new Error(`the second process reports ${found.info?.fileSize} bytes`);
    const downloadFrom = performance.now();
    const download = await downloadFile(second.url, user, file.id);
    const downloadSeconds = (performance.now() - downloadFrom) / 1000;
    const bytesMatch = download.bytes === total && download.md5 === digests.whole;
    if (!bytesMatch) throw new Error('the second process served other bytes');
    return {
      database: databaseUrl ? 'DATABASE_URL' : `a throwaway PostgreSQL ${postgres.version} (scripts/postgres.mjs)`,
      store: 's3rver (one process)',
      sizeMiB: total / MiB,
      uploadThroughFirst: { seconds: round(uploadSeconds), MBs: round(total / MB / uploadSeconds) },
      diffOfSecondSawItAfterMs: round(seenMs),
      downloadThroughSecond: { seconds: round(downloadSeconds), MBs: round(total / MB / downloadSeconds) },
      bytesMatch,
    };
  });
}

// Processes.

/** The built server with exactly the environment it needs; S3_* when `s3` is given. */
function startServer({ dataDir, s3, database = databaseUrl }) {
  const profile = values.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(here, 'results', 'photos-profiles')}`]
    : [];
  return startProcess(process.execPath, [...profile, serverEntry], serverRoot, {
    PORT: '0',
    LOG_LEVEL: serverLogLevel,
    ...(database ? { DATABASE_URL: database } : { DATA_DIR: path.join(dataDir, 'server') }),
    FIXED_OTT_DOMAIN_SUFFIX: ottDomain,
    FIXED_OTT_DOMAIN_CODE: ottCode,
    OTT_SEND_SOFT_LIMIT: '0',
    OTT_SEND_HARD_LIMIT: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    PHOTOS_UPLOAD_URLS_PER_MINUTE: '0',
    PHOTOS_APP_ORIGINS: photosOrigin,
    ...(s3
      ? {
          S3_BUCKET: s3.bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_REGION: 'us-east-1',
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: 'true',
        }
      : {}),
  });
}

/** s3rver (the servers' tests use it too) in a process of its own, its files under `dataDir`. */
async function startS3rver(dataDir) {
  const bucket = 'photos';
  const cors = `<CORSConfiguration><CORSRule><AllowedOrigin>${photosOrigin}</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod>
    <AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader></CORSRule></CORSConfiguration>`;
  const script = `
    const S3rver = require('s3rver');
    const [directory, bucket, cors] = process.argv.slice(1);
    new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [cors] }] })
      .run().then((address) => console.log('listening ' + address.port), (error) => { console.error(error); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script, path.join(dataDir, 's3rver'), bucket, cors], {
    cwd: serverRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    exited.then((code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
  return {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs `work` with a fresh folder, then stops what it started (owned) and removes the folder. */
async function withScratch(prefix, work) {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  const started = new Set();
  ownedNow = started;
  try {
    return await work(folder);
  } finally {
    for (const item of [...started].reverse()) {
      await item.stop().catch(() => {});
      cleanUps.delete(item.stop);
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Records a started process so that the scratch's end (or Ctrl-C) stops it. */
async function owned(starting) {
  const item = await starting;
  ownedNow.add(item);
  cleanUps.add(item.stop);
  return item;
}

// Measuring.

/**
 * Runs `work` while the VmRSS of `pids` is sampled every 100 ms and their CPU and the machine's are read
 * from /proc: the work's result, its seconds and the usage.
 */
async function measured(pids, work) {
  const meter = usageMeter(pids.filter(Boolean));
  const from = performance.now();
  const value = await work();
  const seconds = (performance.now() - from) / 1000;
  return { value, seconds, usage: meter.stop() };
}

function usageMeter(pids) {
  const names = ['server', 's3rver'];
  const rss = pids.map((pid) => {
    const start = rssMB(pid);
    return { pid, start, max: start };
  });
  const timer = setInterval(() => {
    for (const entry of rss) entry.max = Math.max(entry.max, rssMB(entry.pid) ?? 0);
  }, 100);
  const cpuBefore = pids.map(processCpuMs);
  const mainBefore = pids.map(mainThreadCpuMs);
  const benchBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const from = performance.now();
  return {
    stop() {
      clearInterval(timer);
      const seconds = (performance.now() - from) / 1000;
      const bench = process.cpuUsage(benchBefore);
      const machine = machineTicks();
      const delta = machine.map((value, index) => value - machineBefore[index]);
      const all = delta.reduce((sum, value) => sum + value, 0) || 1;
      const usage = {};
      rss.forEach((entry, index) => {
        usage[names[index]] = {
          rssStartMB: round(entry.start),
          rssMaxMB: round(entry.max),
          rssGrowthMB: round(entry.max - entry.start),
          cpuPercentOfOneCore: round(((processCpuMs(entry.pid) - cpuBefore[index]) / 10 / seconds) * 1),
          // The event loop's thread alone: the rest is V8's and libuv's threads and the server's workers.
          mainThreadCpuPercentOfOneCore: round((mainThreadCpuMs(entry.pid) - mainBefore[index]) / 10 / seconds),
        };
      });
      usage.benchCpuPercentOfOneCore = round((bench.user + bench.system) / 1000 / 10 / seconds);
      // /proc/stat's first line: user nice system idle iowait irq softirq steal.
      usage.machinePercent = {
        user: round(((delta[0] + delta[1]) / all) * 100),
        system: round(((delta[2] + delta[5] + delta[6]) / all) * 100),
        iowait: round((delta[4] / all) * 100),
        idle: round((delta[3] / all) * 100),
        steal: round((delta[7] / all) * 100),
      };
      usage.loadAverage1m = round(os.loadavg()[0]);
      return usage;
    },
  };
}

function rssMB(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** utime + stime of the whole process (all its threads), in ms. */
function processCpuMs(pid) {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** utime + stime of the process's main thread (its event loop), in ms. */
function mainThreadCpuMs(pid) {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(file) {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

function machineTicks() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  return line.trim().split(/\s+/).slice(1, 9).map(Number);
}

// HTTP.

/** A photos account: signed up with the fixed code, random key attributes; its token is for the photos app. */
async function signUp(serverUrl) {
  const email = `photos-${randomBytes(4).toString('hex')}${ottDomain}`;
  await call(serverUrl, 'POST', '/users/ott', { body: { email, purpose: 'signup' } });
  const { id, token } = await call(serverUrl, 'POST', '/users/verify-email', { body: { email, ott: ottCode } });
  await call(serverUrl, 'PUT', '/users/attributes', { body: { keyAttributes: randomKeyAttributes() }, token });
  return { id, email, token };
}

async function createAlbum(serverUrl, user) {
  const { collection } = await call(serverUrl, 'POST', '/collections', {
    token: user.token,
    body: {
      encryptedKey: b64(48),
      keyDecryptionNonce: b64(24),
      encryptedName: b64(32),
      nameDecryptionNonce: b64(24),
      type: 'album',
    },
  });
  return { id: collection.id };
}

/** One JSON request to the API: the parsed answer, or a throw. */
async function call(serverUrl, method, route, { body, token, agent } = {}) {
  const headers = { 'X-Client-Package': clientPackage };
  if (token) headers['X-Auth-Token'] = token;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  const answer = await send(`${serverUrl}${route}`, { method, headers, body: payload, agent });
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${method} ${route}: ${answer.status} ${answer.text}`);
  return answer.text ? JSON.parse(answer.text) : undefined;
}

/**
 * One request; `body` a string, bytes or an async iterable of chunks (streamed with backpressure). Answers
 * the status, headers and text, or with `countOnly` the number of bytes of the body instead of its text.
 */
function send(url, { method, headers = {}, body, agent, countOnly = false }) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent }, (response) => {
      const chunks = [];
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (!countOnly) chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          headers: response.headers,
          bytes,
          text: countOnly ? '' : Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) request.end(body);
    else pipeline(body, request).catch(reject);
  });
}

// Small things.

function b64(length) {
  return randomBytes(length).toString('base64');
}

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function log(line) {
  process.stderr.write(`${line}\n`);
}

/** Runs the parts asked for and prints their figures (called last: every constant above is set by then). */
async function main() {
  const result = {
    benchmark: 'photos',
    cores: os.availableParallelism(),
    loadAverageAtStart: os.loadavg().map(round),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim(),
    database: databaseUrl ? 'postgresql (DATABASE_URL)' : 'pglite (embedded, a fresh folder)',
  };
  if (parts.includes('transfer')) {
    result.transfer = {};
    for (const store of stores) result.transfer[store] = await transferBenchmark(store);
  }
  if (parts.includes('diff')) result.diff = await diffBenchmark();
  if (parts.includes('two')) result.twoProcesses = await twoProcessBenchmark();
  result.loadAverageAtEnd = os.loadavg().map(round);
  console.log(JSON.stringify(result, null, 2));
}

await main();
