// The Next configuration of every app (apps/*/next.config.mjs re-exports it). Each app is a static
// export: plain files that any static server can serve (see docs/self-hosting.md). Our packages are
// not built, so Next compiles them with the app (see docs/decisions.md#build-and-tooling).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * MUI's createTheme and ThemeProvider each carry a second implementation for themes with CSS theme
 * variables (createThemeWithVars, CssVarsProvider and the colour-scheme machinery under them: about
 * 7 KiB gzip of every first load), chosen at run time, so the bundler cannot drop it. Our theme
 * (packages/shared/src/theme.ts) never uses it; in the client bundles those two imports resolve to a
 * stub that throws if it is ever reached.
 */
const muiCssVarsModules = new Map([
  ['createTheme.mjs', './createThemeWithVars.mjs'],
  ['ThemeProvider.mjs', './ThemeProviderWithVars.mjs'],
]);
const muiWithoutCssVars = fileURLToPath(new URL('./mui-without-css-vars.mjs', import.meta.url));

/**
 * hoist-non-react-statics only defines a function, but its package does not say it is free of side
 * effects, so emotion's bare `import 'hoist-non-react-statics'` kept it (and its own copy of react-is)
 * in every first load although only emotion's unused withTheme calls it. Declaring it side-effect free
 * lets the bundler drop it when nothing uses it.
 */
const sideEffectFreePackages = /[\\/]node_modules[\\/]hoist-non-react-statics[\\/]/;

/**
 * libheif-js's WebAssembly build (the HEIC decoder of the photos app and the cast screen,
 * packages/shared/src/media/heif.ts): its Emscripten glue requires fs, path and crypto in branches only Node
 * runs (without this, Next would put its browser stand-ins for them, about 110 KB, in the decoder's chunk).
 */
const libheifGlue = createRequire(import.meta.url).resolve('libheif-js/libheif-wasm/libheif.js');

/** The crypto worker's name (packages/crypto/src/client.ts), which is also the name of its chunk. */
const cryptoWorkerChunk = 'ente-crypto';

/**
 * Next splits large node_modules (libsodium) and modules shared with the pages out of every chunk, the
 * crypto worker's included; a worker then fetches and compiles those chunks one after the other with
 * synchronous importScripts before it can answer, and the first key it opens waits for all of them
 * (about 20-30 ms of a reload of /auth). The worker's chunk is left whole: one file, fetched once.
 * @param {unknown} splitChunks
 */
function keepWorkerWhole(splitChunks) {
  if (!splitChunks || typeof splitChunks !== 'object' || !('chunks' in splitChunks)) return;
  const chosen = splitChunks.chunks;
  if (typeof chosen !== 'function') throw new Error(`unexpected splitChunks.chunks from Next: ${String(chosen)}`);
  splitChunks.chunks = (chunk) => chunk.name !== cryptoWorkerChunk && chosen(chunk);
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'export',
  trailingSlash: false,
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  // `next build` would type-check each app again (20–35 s of CPU per app); every workspace's `tsc` already
  // runs in `npm run lint` and first in `npm test`, with these same tsconfigs.
  typescript: { ignoreBuildErrors: true },
  transpilePackages: ['@ente/shared', '@ente/accounts', '@ente/protocol', '@ente/crypto'],
  webpack(config, { webpack, isServer }) {
    config.module.rules.push({ test: sideEffectFreePackages, sideEffects: false });
    config.module.rules.push({
      test: libheifGlue,
      resolve: { fallback: { fs: false, path: false, crypto: false } },
    });
    if (!isServer) {
      keepWorkerWhole(config.optimization?.splitChunks);
      // Every page's webpack runtime maps each lazy chunk (dialogs, workers, one per locale and namespace) to
      // its file name's hash: 8 hex digits instead of Next's 16 tell versions apart as well (32 bits per
      // chunk name, for cache busting, not security) and keep that map, and so every first load, smaller.
      config.output.hashDigestLength = 8;
      config.plugins.push(
        new webpack.NormalModuleReplacementPlugin(
          /^\.\/(createThemeWithVars|ThemeProviderWithVars)\.mjs$/,
          (resource) => {
            const issuer = resource.contextInfo?.issuer ?? '';
            const match = /[\\/]@mui[\\/]material[\\/]styles[\\/]([^\\/]+)$/.exec(issuer);
            if (match && muiCssVarsModules.get(match[1]) === resource.request) resource.request = muiWithoutCssVars;
          },
        ),
      );
    }
    return config;
  },
};

export default nextConfig;
