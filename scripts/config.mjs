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
 * the apps' build settings and the server's allowed origins and accounts address.
 * @type {Readonly<Record<'NEXT_PUBLIC_ENTE_ENDPOINT' | 'NEXT_PUBLIC_ENTE_ACCOUNTS_URL' | 'NEXT_PUBLIC_ENTE_APP_ORIGINS' | 'APP_ORIGINS' | 'ACCOUNTS_URL', string | undefined>>}
 */
export const stackOverrides = Object.freeze({
  NEXT_PUBLIC_ENTE_ENDPOINT: process.env.NEXT_PUBLIC_ENTE_ENDPOINT,
  NEXT_PUBLIC_ENTE_ACCOUNTS_URL: process.env.NEXT_PUBLIC_ENTE_ACCOUNTS_URL,
  NEXT_PUBLIC_ENTE_APP_ORIGINS: process.env.NEXT_PUBLIC_ENTE_APP_ORIGINS,
  APP_ORIGINS: process.env.APP_ORIGINS,
  ACCOUNTS_URL: process.env.ACCOUNTS_URL,
});
