// Static export: the app is plain files served by any static server (see docs/self-hosting.md).
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
