// The benchmarks' settings from the environment: the only module of bench that reads it.

export const benchSettings = Object.freeze({
  /** Measure the server on this PostgreSQL instead of its embedded PGlite. */
  databaseUrl: process.env.DATABASE_URL,
  /** The measured server's log level. */
  serverLogLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
});
