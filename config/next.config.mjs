// The Next configuration of every app (apps/*/next.config.mjs re-exports it). Each app is a static
// export: plain files that any static server can serve (see docs/self-hosting.md). Our packages are
// not built, so Next compiles them with the app (see docs/decisions.md#build-and-tooling).
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

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'export',
  trailingSlash: false,
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  transpilePackages: ['@ente/shared', '@ente/accounts', '@ente/protocol', '@ente/crypto'],
  webpack(config, { webpack, isServer }) {
    config.module.rules.push({ test: sideEffectFreePackages, sideEffects: false });
    if (!isServer) {
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
