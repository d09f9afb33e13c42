// Cast benchmark: the cast screen (apps/cast) paired by the photos app's own sender, both in Chromium against the
// local stack.
//   node --import tsx bench/cast.mjs [--runs 5] [--transitions 50] [--photos 12] [--slide-seconds 2] [--no-build]
// (npm run bench:cast --workspace @ente/bench -- …). Starts the stack as `npm start` does, with a fresh database (so
// the ports of `npm start` must be free: run it under `flock /tmp/stack.lock` on a shared machine), and prints one
// JSON object, also written to bench/results/cast.json.
//
// An account with an album of --photos JPEGs of 12 Mpx (4032×3024, about 4.2 MB each, as a phone takes them; made
// by ffmpeg at bench time, uploaded over HTTP as a photos client does: the file in 4 MiB secretstream chunks, a
// 720 px thumbnail, the metadata). The screen opens the cast page in one browser context with
// `?slideSeconds=` (the page's own setting of the slide interval); the photos app, signed in in another, opens the
// album's "Play on a screen" dialog. Each run types the code the screen shows and submits it, then Stop sends the
// screen back to a new code. A watcher in the screen's page looks at every animation frame (requestAnimationFrame)
// at the slideshow's layers: a frame is covered when a layer is fully opaque (computed opacity 1, which a running
// fade reports as it goes) and its picture is loaded (complete, naturalWidth > 0).
// - `firstSlideMs`: from the submit event of the dialog's form (on the photos page's clock) to the first covered
//   frame on the screen (on its clock; both are performance.timeOrigin + performance.now(), one machine), per run,
//   with median and max (target ≤ 2.5 s). It includes the screen's wait for its next poll (every 2 s).
// - `transitions` (the last run, kept playing for --transitions slides): the gaps between one slide's appearance
//   (its layer mounted) and the next's, median and max (the interval plus any load past it), and the frames after
//   the first slide that were not covered (`blankFrames`, target 0) or in which the layer fading in had no picture
//   yet (`dimFrames`: it would darken the slide under it; target 0).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { createAccount, passwordLogin, signInBrowser } from '@ente/e2e/api.ts';

import { addPhoto, createAlbum } from './album-seed.mjs';
import { median, startLocalStack } from './local-stack.mjs';
import { positiveOption, saveReport } from './numbers.mjs';

const targets = { firstSlideMs: 2500, blankFrames: 0, dimFrames: 0 };
const albumName = 'Cast bench';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    transitions: { type: 'string', default: '50' },
    photos: { type: 'string', default: '12' },
    'slide-seconds': { type: 'string', default: '2' },
    'no-build': { type: 'boolean', default: false },
  },
});
const positive = (name) => positiveOption(values, name);
const runs = positive('runs');
const transitions = positive('transitions');
const photoCount = positive('photos');
const slideSeconds = positive('slide-seconds');

const scratch = mkdtempSync(path.join(os.tmpdir(), 'ente-bench-cast-'));
const stack = await startLocalStack('cast', { build: !values['no-build'] });
const { browser, machine, urls } = stack;
const report = {
  generatedAt: new Date().toISOString(),
  browser: `Chromium ${browser.version()} (headless)`,
  machine: { ...machine, loadAverage1mAtStart: os.loadavg()[0] },
  album: { photos: photoCount },
  slideSeconds,
  targets,
};
try {
  Object.assign(report, await castRuns());
  saveReport('cast', report);
} finally {
  await stack.stop();
  rmSync(scratch, { recursive: true, force: true });
}

async function castRuns() {
  const { account, token } = await createAccount({ app: 'photos' });
  const photos = makePhotos(photoCount);
  report.album.originalBytes = photos.map(({ original }) => original.length);
  await seedAlbum(account, token, photos);
  log(`album of ${photoCount} photos uploaded`);

  // The sender: the photos app signed in, the album's "Play on a screen" dialog open.
  const sender = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await sender.addInitScript(watchSubmit);
  await signInBrowser(sender, 'photos', account, await passwordLogin(account, 'photos'), '/gallery');
  await sender.getByRole('navigation').getByRole('link', { name: 'Albums', exact: true }).click();
  await sender.getByRole('button', { name: new RegExp(`^${albumName}`) }).click();
  await sender.getByRole('button', { name: 'Play on a screen' }).click();
  const dialog = sender.getByRole('dialog', { name: `Play “${albumName}” on a screen` });

  // The screen.
  const screen = await (
    await browser.newContext({ locale: 'en-US', viewport: { width: 1920, height: 1080 } })
  ).newPage();
  const errors = [];
  for (const page of [sender, screen]) page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  await screen.addInitScript(watchSlides);
  await screen.goto(`${urls.cast}/?slideSeconds=${String(slideSeconds)}`);

  const firstSlideMs = [];
  let played;
  for (let run = 0; run < runs; run++) {
    const code = screen.getByTestId('cast-code');
    await code.waitFor({ timeout: 60_000 });
    await screen.waitForFunction(() =>
      /^[A-Z1-9]{6}$/.test(document.querySelector('[data-testid="cast-code"]')?.textContent ?? ''),
    );
    await screen.evaluate(() => window.castBench.reset());
    await dialog.getByRole('textbox', { name: 'Code on the screen' }).fill((await code.textContent()) ?? '');
    await dialog.getByRole('textbox', { name: 'Code on the screen' }).press('Enter');
    await screen.waitForFunction(() => window.castBench.firstCoveredAt !== null, undefined, { timeout: 60_000 });
    const submittedAt = await sender.evaluate(() => window.castSubmittedAt);
    const shownAt = await screen.evaluate(() => window.castBench.firstCoveredAt);
    firstSlideMs.push(Math.round(shownAt - submittedAt));
    log(`run ${String(run + 1)}: first slide ${String(firstSlideMs.at(-1))} ms after the submit`);
    if (run === runs - 1) {
      await screen.waitForFunction((count) => window.castBench.slides.length > count, transitions, {
        timeout: (transitions + 5) * (slideSeconds + 5) * 1000,
        polling: 1000,
      });
      played = await screen.evaluate(() => window.castBench.summary());
    }
    await dialog.getByRole('button', { name: 'Stop' }).click();
    await dialog.getByText('Stopped. The screen shows a new code.').waitFor();
    await screen.getByTestId('cast-slideshow').waitFor({ state: 'detached', timeout: 60_000 });
  }

  const gaps = played.slides.slice(1, transitions + 1).map((slide, index) => slide.at - played.slides[index].at);
  return {
    firstSlideMs: { runs: firstSlideMs, median: median(firstSlideMs), max: Math.max(...firstSlideMs) },
    transitions: {
      count: gaps.length,
      gapMs: {
        median: Math.round(median(gaps)),
        max: Math.round(Math.max(...gaps)),
        overIntervalPlus500Ms: gaps.filter((gap) => gap > slideSeconds * 1000 + 500).length,
      },
      framesWatched: played.frames,
      blankFrames: played.blankFrames,
      dimFrames: played.dimFrames,
      slideSources: played.sources,
    },
    pageErrors: errors,
  };
}

// ---- in the pages ----

/** The photos page: when the cast dialog's form was submitted (the person pressed Enter or "Play"). */
function watchSubmit() {
  document.addEventListener(
    'submit',
    (event) => {
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) {
        window.castSubmittedAt = performance.timeOrigin + performance.now();
      }
    },
    true,
  );
}

/** The screen: the slideshow's layers looked at on every animation frame (see the top of this file). */
function watchSlides() {
  const now = () => performance.timeOrigin + performance.now();
  let state;
  let lastTop = null;
  const reset = () => {
    lastTop = null;
    state = { firstCoveredAt: null, frames: 0, blankFrames: 0, dimFrames: 0, slides: [] };
    Object.assign(window.castBench, state);
  };
  window.castBench = {
    reset,
    summary: () => {
      const sources = {};
      for (const { source } of state.slides) sources[source] = (sources[source] ?? 0) + 1;
      return {
        frames: state.frames,
        blankFrames: state.blankFrames,
        dimFrames: state.dimFrames,
        slides: state.slides,
        sources,
      };
    },
  };
  reset();
  const frame = () => {
    const layers = [...document.querySelectorAll('[data-testid="cast-slideshow"] > *')].flatMap((layer) => {
      const image = layer.querySelector('img[data-file-id]');
      return image ? [{ layer, image, opacity: Number(getComputedStyle(layer).opacity) }] : [];
    });
    if (layers.length > 0) {
      const loaded = ({ image }) => image.complete && image.naturalWidth > 0;
      const covered = layers.some((layer) => layer.opacity === 1 && loaded(layer));
      const top = layers[layers.length - 1];
      const at = now();
      if (top.layer !== lastTop) {
        lastTop = top.layer;
        state.slides.push({ at, id: Number(top.image.dataset.fileId), source: top.image.dataset.slideSource });
      }
      if (state.firstCoveredAt === null) {
        if (covered) state.firstCoveredAt = at;
      } else {
        state.frames += 1;
        if (!covered) state.blankFrames += 1;
        if (top.opacity > 0 && !loaded(top)) state.dimFrames += 1;
      }
      window.castBench.firstCoveredAt = state.firstCoveredAt;
      window.castBench.slides = state.slides;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

// ---- the album ----

/**
 * `count` JPEGs of 4032×3024: coarse noise over gradients (the noise before the hue turn, on RGB: after it, on
 * YUV, the JPEG shrinks to about 1 MB), enlarged (detail a JPEG cannot squeeze away), q 9.
 */
function makePhotos(count) {
  const folder = path.join(scratch, 'photos');
  mkdirSync(folder);
  return Array.from({ length: count }, (_, index) => {
    const file = path.join(folder, `${String(index)}.jpg`);
    const thumbnail = path.join(folder, `${String(index)}-thumb.jpg`);
    const hue = (index * 47) % 360;
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `gradients=s=1008x756:c0=0x1d3f8f:c1=0xf2a33a:c2=0xe0507a:nb_colors=3:seed=${String(index + 1)},noise=alls=40:allf=u,hue=h=${String(hue)},scale=4032:3024:flags=bicubic`,
      '-frames:v',
      '1',
      '-q:v',
      '9',
      file,
    ]);
    ffmpeg(['-i', file, '-vf', 'scale=720:-1', '-q:v', '5', thumbnail]);
    return {
      title: `IMG_${String(index).padStart(4, '0')}.jpg`,
      original: readFileSync(file),
      thumbnail: readFileSync(thumbnail),
    };
  });
}

function ffmpeg(args) {
  const result = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', ...args], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed`);
}

/** The album, and each photo put to the store and added to it as the photos app's uploader does. */
async function seedAlbum(account, token, photos) {
  const album = await createAlbum(account, token, albumName);
  const takenAt = Date.now() * 1000;
  for (const [index, { title, original, thumbnail }] of photos.entries()) {
    await addPhoto(token, album, { original, thumbnail, title, creationTime: takenAt - index * 60_000_000 });
  }
}

function log(line) {
  console.error(`[cast] ${line}`);
}
