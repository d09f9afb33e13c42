// Types for scripts/postgres.mjs (plain JavaScript, run by Node without a build), for the TypeScript
// that starts a throwaway PostgreSQL through it (the server's tests).

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  dataDir: string;
  /** Stops the server and deletes its folder. */
  stop(): Promise<void>;
}

/** Starts a private PostgreSQL cluster in a temporary folder, on a free loopback port. */
export function startPostgres(options?: { log?: (line: string) => void }): Promise<PostgresServer>;
