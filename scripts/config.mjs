// The scripts' one view of the process environment: the environment every command they start runs
// with (the caller's, without telemetry or browser downloads) and the overrides of the local stack's
// settings. Node builtins only: setup.mjs imports it before node_modules exists.

/** Environment for every child process. */
export const quietEnv = Object.freeze({
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  TURBO_TELEMETRY_DISABLED: '1',
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
});

/**
 * The settings of the local stack a caller may override from the environment (see start.mjs):
 * the apps' build settings, the server's allowed origins and accounts address, and its object store.
 * @type {Readonly<Record<'NEXT_PUBLIC_ENTE_ENDPOINT' | 'NEXT_PUBLIC_ENTE_ACCOUNTS_URL' | 'NEXT_PUBLIC_ENTE_CAST_URL' | 'NEXT_PUBLIC_ENTE_APP_ORIGINS' | 'APP_ORIGINS' | 'ACCOUNTS_URL' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE' | 'PHOTOS_APP_ORIGINS', string | undefined>>}
 */
export const stackOverrides = Object.freeze({
  NEXT_PUBLIC_ENTE_ENDPOINT: process.env.NEXT_PUBLIC_ENTE_ENDPOINT,
  NEXT_PUBLIC_ENTE_ACCOUNTS_URL: process.env.NEXT_PUBLIC_ENTE_ACCOUNTS_URL,
  NEXT_PUBLIC_ENTE_CAST_URL: process.env.NEXT_PUBLIC_ENTE_CAST_URL,
  NEXT_PUBLIC_ENTE_APP_ORIGINS: process.env.NEXT_PUBLIC_ENTE_APP_ORIGINS,
  APP_ORIGINS: process.env.APP_ORIGINS,
  ACCOUNTS_URL: process.env.ACCOUNTS_URL,
  // The server's S3-compatible object store (apps/server/README.md), whose origin the apps' CSP must allow.
  S3_BUCKET: process.env.S3_BUCKET,
  S3_ENDPOINT: process.env.S3_ENDPOINT,
  S3_REGION: process.env.S3_REGION,
  S3_FORCE_PATH_STYLE: process.env.S3_FORCE_PATH_STYLE,
  PHOTOS_APP_ORIGINS: process.env.PHOTOS_APP_ORIGINS,
});
