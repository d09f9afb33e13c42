// The Next configuration of every app (apps/*/next.config.mjs re-exports it). Each app is a static
// export: plain files that any static server can serve (see docs/self-hosting.md). Our packages are
// not built, so Next compiles them with the app (see docs/decisions.md#build-and-tooling).
/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'export',
  trailingSlash: false,
  images: { unoptimized: true },
  reactStrictMode: true,
  poweredByHeader: false,
  transpilePackages: ['@ente/shared', '@ente/accounts', '@ente/protocol', '@ente/crypto'],
};

export default nextConfig;
