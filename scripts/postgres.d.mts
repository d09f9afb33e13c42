// Types for scripts/postgres.mjs (plain JavaScript, run by Node without a build), for the TypeScript
// that starts a throwaway PostgreSQL through it (the server's tests).

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** The server's version, e.g. "15.18" (15 is pinned; another only where Debian has no postgresql-15). */
  version: string;
  dataDir: string;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

/** The major version production runs, which the tests install. */
export const pinnedMajor: string;

/** Starts a private PostgreSQL cluster in a temporary folder, on a free loopback port. */
export function startPostgres(options?: { log?: (line: string) => void }): Promise<PostgresServer>;
