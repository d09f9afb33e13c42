// HEIC benchmark: how long the shared HEIF converter (packages/shared/src/media/heif.ts) takes to turn a HEIC into
// the upload's JPEG thumbnail and into the viewer's (and cast screen's) JPEG, in Chromium, in a module worker, under
// the apps' CSP (served by scripts/serve-static.mjs, so the same headers, content types and caching).
//   node --import tsx bench/heic.mjs [--runs 5] [--no-camera] [--converter <heif.ts>]
// (npm run bench:heic --workspace @ente/bench -- …). It starts no stack (no ports of `npm start`), but it uses the
// CPU: run it under `flock /tmp/stack.lock` on a shared machine. It prints one JSON object, also written to
// bench/results/heic.json.
//
// The worker is bundled here by esbuild from the apps' own code: heif.ts's `decodeHeif` registered with the photos
// upload's `makeThumbnail` (apps/photos/src/upload/thumbnail.ts, the 720 px JPEG of an upload), and heif.ts's
// `displayableOriginal` (the full-size JPEG of the viewer and the cast screen). Pictures: the e2e fixture
// `garden.heic` (600×400) and, unless --no-camera, a camera-sized HEIC (3024×4032, made at bench time by
// `heif-enc -q 50` from a generated gradient with noise, as the upload bench's HEICs are). For each picture:
// `firstThumbnailMs`, a new worker's first thumbnail (the decoder's code and wasm loaded and compiled, from the
// browser's HTTP cache after the first worker), then --runs thumbnails and --runs viewer JPEGs in that same worker
// (`thumbnailMs`, `viewerJpegMs`: median and max), and when the converter exports `decodeHeifPixels`, --runs decodes
// to RGBA alone (`decodeMs`). --converter bundles another heif.ts instead of the current one (an earlier version,
// with its own node_modules beside it, to time before and after on the same machine and load).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { chromium } from '@playwright/test';
import { build } from 'esbuild';

import { serveStatic } from '../scripts/serve-static.mjs';
import { chromiumPath } from '../scripts/setup.mjs';
import { median } from './local-stack.mjs';
import { positiveOption, round, saveReport } from './numbers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'packages/shared/package.json'));

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'no-camera': { type: 'boolean', default: false },
    converter: { type: 'string', default: path.join(root, 'packages/shared/src/media/heif.ts') },
  },
});
const runs = positiveOption(values, 'runs');
const converter = path.resolve(values.converter);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'ente-bench-heic-'));
/** Served like an app's export: the worker and its assets under /_next/static/ (cached as immutable). */
const site = path.join(scratch, 'site');
const assets = path.join(site, '_next/static/heic-bench');
mkdirSync(assets, { recursive: true });
writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>HEIC bench</title>');

const pictures = [
  { name: 'garden.heic (600×400)', bytes: readFileSync(path.join(root, 'e2e/fixtures/photos/garden.heic')) },
];
if (!values['no-camera']) pictures.push({ name: 'camera (3024×4032)', bytes: cameraHeic(3024, 4032) });

const library = await bundleWorker();
const server = await serveStatic({ root: site });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const report = {
  generatedAt: new Date().toISOString(),
  browser: `Chromium ${browser.version()} (headless)`,
  machine: {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage1mAtStart: os.loadavg()[0],
  },
  library,
  runs,
  pictures: [],
};
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}/`);
  for (const picture of pictures) report.pictures.push(await measure(page, picture));
  saveReport('heic', report);
} finally {
  await browser.close();
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
}

/** One picture: a fresh worker's first thumbnail, then --runs of each conversion in that worker. */
async function measure(page, { name, bytes }) {
  const times = await page.evaluate(
    async ({ base64, runs }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const worker = new Worker('/_next/static/heic-bench/worker.js', { type: 'module' });
      const call = (kind) =>
        new Promise((resolve, reject) => {
          worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
          worker.onerror = (event) => reject(new Error(event.message || 'worker error'));
          worker.postMessage({ kind, bytes });
        });
      const first = await call('thumbnail');
      const thumbnails = [];
      const viewer = [];
      const decodes = [];
      for (let run = 0; run < runs; run++) thumbnails.push(await call('thumbnail'));
      for (let run = 0; run < runs; run++) viewer.push(await call('viewer'));
      for (let run = 0; run < runs; run++) {
        const decoded = await call('pixels');
        if (decoded.ms === undefined) break;
        decodes.push(decoded);
      }
      worker.terminate();
      return { first, thumbnails, viewer, decodes };
    },
    { base64: Buffer.from(bytes).toString('base64'), runs },
  );
  const summary = (list) => ({
    median: round(median(list.map((t) => t.ms))),
    max: round(Math.max(...list.map((t) => t.ms))),
  });
  return {
    picture: name,
    fileBytes: bytes.length,
    firstThumbnailMs: round(times.first.ms),
    thumbnailMs: summary(times.thumbnails),
    viewerJpegMs: summary(times.viewer),
    ...(times.decodes.length > 0 && { decodeMs: summary(times.decodes) }),
    decoded: { width: times.first.width, height: times.first.height },
    thumbnailBytes: times.first.bytes,
    viewerJpeg: { bytes: times.viewer[0].bytes, type: times.viewer[0].type },
  };
}

/**
 * Bundles the bench's worker from the apps' code. A `new URL('<package file>', import.meta.url)` (a wasm the
 * decoder fetches; webpack emits it as an asset in the apps) is left as is by esbuild, so the file is copied where
 * that URL points, next to the worker. Node's built-ins, which the Emscripten builds require on Node only, are
 * empty modules.
 */
async function bundleWorker() {
  const entry = `
    import * as heif from ${JSON.stringify(converter)};
    import { makeThumbnail, registerImageDecoder } from './apps/photos/src/upload/thumbnail.ts';
    registerImageDecoder(heif.decodeHeif);
    self.onmessage = async ({ data: { kind, bytes } }) => {
      try {
        const from = performance.now();
        const file = new Blob([bytes]);
        if (kind === 'thumbnail') {
          const { jpeg, width, height } = await makeThumbnail({ image: file });
          self.postMessage({ ms: performance.now() - from, width, height, bytes: jpeg.size });
        } else if (kind === 'pixels') {
          if (!heif.decodeHeifPixels) return self.postMessage({});
          const { width } = await heif.decodeHeifPixels(file);
          self.postMessage({ ms: performance.now() - from, width });
        } else {
          const jpeg = await heif.displayableOriginal(file);
          self.postMessage({ ms: performance.now() - from, bytes: jpeg.size, type: jpeg.type });
        }
      } catch (error) {
        self.postMessage({ error: String(error) });
      }
    };`;
  const heicTo = (() => {
    try {
      const heicTo = createRequire(converter).resolve('heic-to');
      return path.join(path.dirname(heicTo), '../src/lib/libheif-without-unsafe-eval.js');
    } catch {
      return undefined;
    }
  })();
  const result = await build({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'heic-bench-worker.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    splitting: true,
    outdir: assets,
    entryNames: 'worker',
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'heic-bench',
        setup(build) {
          // An earlier heif.ts (--converter) imports heic-to's JavaScript build of libheif by this name, an alias
          // the apps' Next configuration used to set.
          if (heicTo) build.onResolve({ filter: /^heic-to\/libheif$/ }, () => ({ path: heicTo }));
          build.onResolve({ filter: /^(fs|path|crypto|url|module|worker_threads)$/ }, () => ({
            path: 'node-builtin',
            namespace: 'empty',
          }));
          build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'module.exports = {};' }));
        },
      },
    ],
  });
  const source = Object.keys(result.metafile.inputs).join('\n');
  const wasm = [];
  for (const output of Object.keys(result.metafile.outputs)) {
    const text = readFileSync(path.join(root, output), 'utf8');
    for (const [, file] of text.matchAll(/new URL\(\s*["']([^"']+\.wasm)["']\s*,\s*import\.meta\.url\s*\)/g)) {
      const target = path.join(assets, file);
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(require.resolve(file), target);
      wasm.push({ file, bytes: statSync(target).size });
    }
  }
  return {
    decoder: source.includes('libheif-js') ? 'libheif-js (WebAssembly)' : 'heic-to (libheif as JavaScript, wasm2js)',
    scriptBytes: Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .reduce((sum, [, output]) => sum + output.bytes, 0),
    wasm,
  };
}

/**
 * A camera-sized HEIC: a diagonal gradient with noise (seeded, so every run encodes the same picture), written as a
 * Y4M (4:2:0) and encoded by heif-enc (Debian's libheif-examples) at quality 50.
 */
function cameraHeic(width, height) {
  const y4m = path.join(scratch, 'camera.y4m');
  const heic = path.join(scratch, 'camera.heic');
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\nFRAME\n`);
  const luma = Buffer.alloc(width * height);
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2);
  let seed = 9;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed % 9) - 4;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const value = 40 + (170 * (x / width + y / height)) / 2 + noise();
      luma[y * width + x] = Math.max(0, Math.min(255, Math.round(value)));
    }
  }
  const quarter = (width / 2) * (height / 2);
  for (let index = 0; index < quarter; index++) {
    chroma[index] = 128 + Math.round(40 * Math.sin(index / 5000)) + noise();
    chroma[quarter + index] = 128 + Math.round(40 * Math.cos(index / 7000)) + noise();
  }
  writeFileSync(y4m, Buffer.concat([header, luma, chroma]));
  const encoded = spawnSync('heif-enc', ['-q', '50', '-o', heic, y4m], { encoding: 'utf8' });
  if (encoded.error || encoded.status !== 0) {
    throw new Error(
      `heif-enc failed (apt-get install libheif-examples, or pass --no-camera): ${encoded.error ?? encoded.stderr}`,
    );
  }
  return readFileSync(heic);
}
