// Configuration for tests: the in-memory, quiet configuration of a test server, and the database the
// suite runs on, as the server's own configuration reads it from the environment.
import { loadConfig, type Config } from '../config.ts';

/** The configuration of a test server: in memory, quiet, every default otherwise. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ PORT: '0', DATA_DIR: 'memory://', LOG_LEVEL: 'silent', ...overrides });
}

/** The PostgreSQL the suite runs on (DATABASE_URL), or undefined for PGlite. */
export function suiteDatabaseUrl(): string | undefined {
  return loadConfig().DATABASE_URL;
}
