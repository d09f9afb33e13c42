// The server's configuration: every environment variable it reads, validated once at start so that a
// typo fails loudly with the variable's name instead of misbehaving later. README.md lists them.
import { availableParallelism } from 'node:os';

import { z } from 'zod';

import { castLimits } from '@ente/protocol';

import { parseTrustedProxies, type TrustedProxies } from './lib/addresses.ts';

export type Config = z.infer<typeof configSchema>;

const localOrigins = [3000, 3001, 3003, 3004].flatMap((port) => [
  `http://localhost:${port}`,
  `http://127.0.0.1:${port}`,
]);

const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin.length > 0),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((origin) => origin.replace(/\/$/, ''))));

const flag = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/** TRUST_PROXY: a hop count or a list of addresses and ranges; settings that trust every hop are refused. */
const trustedProxies = z.string().transform((value, context): TrustedProxies => {
  const parsed = parseTrustedProxies(value);
  if (typeof parsed !== 'string') return parsed;
  context.addIssue({ code: 'custom', message: parsed });
  return z.NEVER;
});

const MiB = 1024 * 1024;

/** "email,code" pairs separated by ";" (docs/protocol.md#fixed-codes-for-testing). */
const fixedOttList = z
  .string()
  .transform((value) => value.split(';').filter((entry) => entry.trim().length > 0))
  .pipe(
    z.array(
      z
        .string()
        .regex(/^\s*[^\s,@]+@[^\s,@]+\s*,\s*\d{6}\s*$/, 'each entry must be "email,NNNNNN"')
        .transform((entry) => {
          const [email = '', code = ''] = entry.split(',');
          return { email: email.trim().toLowerCase(), code: code.trim() };
        }),
    ),
  );

const configSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** A real PostgreSQL; when unset the embedded PGlite keeps its data in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * PGlite data folder, relative to the working directory, whose object-store/ folder keeps the embedded
   * object store's files; "memory://" keeps nothing on disk (the objects go to a temporary folder).
   */
  DATA_DIR: z.string().min(1).default('./data'),
  APP_ORIGINS: originList.default(localOrigins),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The proxies the operator runs in front of the server: how many hops, or their addresses and ranges.
   * The client is the right-most X-Forwarded-For address that is not one of them (lib/addresses.ts).
   */
  TRUST_PROXY: trustedProxies.default({ kind: 'none' }),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /** Reported as `id` by GET /ping. */
  BUILD_ID: z.string().min(1).default('local'),
  /**
   * 32 random bytes (b64) that encrypt TOTP secrets at rest and key the 2FA recovery hash. When unset,
   * one is generated and kept in the database, which is fine for a local server only.
   */
  SERVER_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in padded base64 (e.g. `openssl rand -base64 32`)')
    .optional(),

  /** SMTP server URL (smtp://user:pass@host:587 or smtps://…); when unset, codes are written to the log. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().min(3).default('verify@ente.com'),
  OTT_LIFETIME_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  /** How long a cast screen's code waits for a sender (docs/protocol.md#cast); shorter for the browser tests. */
  CAST_CODE_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(castLimits.codeMinutes * 60)
    .default(castLimits.codeMinutes * 60),
  /** Fixed codes for test addresses (never used for purpose "change"); off by default. */
  FIXED_OTTS: fixedOttList.default([]),
  FIXED_OTT_DOMAIN_SUFFIX: z
    .string()
    .regex(/^@[^\s@]+$/, 'must look like "@example.org"')
    .optional(),
  FIXED_OTT_DOMAIN_CODE: z
    .string()
    .regex(/^\d{6}$/, 'must be 6 digits')
    .optional(),
  DISABLE_REGISTRATION: flag.default(false),
  /** The accounts app: `accountsUrl` of passkey sessions and tokens (docs/protocol.md#passkeys). */
  ACCOUNTS_URL: z.url().default('http://localhost:3001'),
  /** The WebAuthn relying party: its ID (a domain) and the origins allowed in clientDataJSON. */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'must be a lower-case domain name')
    .default('localhost'),
  WEBAUTHN_RP_ORIGINS: z
    .string()
    .default('http://localhost:3001')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    ),

  /**
   * The photos' object store: the embedded one (DATA_DIR/object-store, served by this server) unless
   * S3_BUCKET names a bucket of an S3-compatible store (docs/self-hosting.md#object-storage).
   */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z 0-9 . -)')
    .optional(),
  /** The store's URL; unset: AWS's own endpoint for S3_REGION. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Both or neither; neither: the AWS SDK's usual sources (AWS_* variables, an instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** URLs as ENDPOINT/BUCKET/KEY rather than BUCKET.ENDPOINT/KEY (MinIO, Garage, a store without wildcard DNS). */
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** Origins of the photos apps, whose uploads and downloads go to the store: checked against its CORS at start. */
  PHOTOS_APP_ORIGINS: originList.default(['http://localhost:3000', 'http://127.0.0.1:3000']),
  /**
   * The page a public album link opens, to which `?t=<token>` is added (docs/protocol.md#public-links); unset:
   * the first of PHOTOS_APP_ORIGINS followed by /shared-albums.
   */
  PUBLIC_ALBUMS_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Where the cast page is served, given to Ente's photos apps as the feature flags' `castUrl` (museum's
   * `apps.cast`): its pairing dialog tells people to open this page on the screen. Unset: "" (the client's own).
   */
  CAST_APP_URL: z.url({ protocol: /^https?$/ }).optional(),

  /** Worker threads for SRP's arithmetic (logins, password setup); default: one less than the cores. */
  SRP_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(Math.max(1, availableParallelism() - 1)),

  /** How long tokens and "nothing new since T" stay cached in each process (0: no caching). */
  CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),

  /** Requests per minute on the sensitive routes of docs/protocol.md#rate-limits (0 turns route limits off). */
  RATE_LIMIT_PER_MINUTE: count(10),
  RATE_LIMIT_PUBLIC_KEY_PER_MINUTE: count(200),
  /** Photos upload URLs (single and multipart) per user per minute, each route apart (museum: 500). */
  PHOTOS_UPLOAD_URLS_PER_MINUTE: count(500),
  /** Password tries per public link per hour, from every address together (0 turns it off). */
  PUBLIC_LINK_PASSWORD_TRIES_PER_HOUR: count(60),
  /** OTT send limiter: once this many codes were asked in 5 minutes, each IP may ask 1 per 5 minutes… */
  OTT_SEND_SOFT_LIMIT: count(50),
  /**
   * …and once this many went to addresses without an account in 5 minutes, further ones are held back
   * (answered 200, not mailed) for 10 minutes; codes to accounts still go (docs/protocol.md#e-mail-codes).
   */
  OTT_SEND_HARD_LIMIT: count(200),
  /** Codes one e-mail address may be asked per hour, from everyone; each client address's first one passes. */
  OTT_SENDS_PER_RECIPIENT_PER_HOUR: count(20),

  /** Per account: live authenticator entities, and their bytes (encrypted data + header) (docs/protocol.md#authenticator). */
  AUTHENTICATOR_MAX_ENTITIES: z.coerce.number().int().min(1).max(1_000_000).default(20_000),
  AUTHENTICATOR_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * MiB)
    .default(64 * MiB),
  /** Entity creates and updates per account per hour, from every address together (0 turns it off). */
  AUTHENTICATOR_WRITES_PER_HOUR: count(30_000),
  /** Per account: live user entities of every type, and their bytes (docs/protocol.md#user-entities). */
  USER_ENTITY_MAX_ENTITIES: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
  USER_ENTITY_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(4096 * MiB)
    .default(256 * MiB),
  /** User entity creates and updates per account per hour, from every address together (0 turns it off). */
  USER_ENTITY_WRITES_PER_HOUR: count(30_000),
  /** Bytes of photos (files and thumbnails, trash included) one account may keep; past it uploads are 426. */
  PHOTOS_STORAGE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(1024 * 1024 * MiB),
});

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(config)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = result.data;
  if ((config.FIXED_OTT_DOMAIN_SUFFIX === undefined) !== (config.FIXED_OTT_DOMAIN_CODE === undefined)) {
    throw new ConfigError('Invalid configuration:\n  FIXED_OTT_DOMAIN_SUFFIX and FIXED_OTT_DOMAIN_CODE go together');
  }
  const s3Problem = objectStoreProblem(config);
  if (s3Problem) throw new ConfigError(`Invalid configuration:\n  ${s3Problem}`);
  const webauthnProblem = relyingPartyProblem(config.WEBAUTHN_RP_ID, config.WEBAUTHN_RP_ORIGINS, config.ACCOUNTS_URL);
  if (webauthnProblem) throw new ConfigError(`Invalid configuration:\n  ${webauthnProblem}`);
  return config;
}

/** Why the S3 settings do not go together, if they do not. */
function objectStoreProblem(config: Config): string | undefined {
  if ((config.S3_ACCESS_KEY_ID === undefined) !== (config.S3_SECRET_ACCESS_KEY === undefined)) {
    return 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together';
  }
  const s3Settings = [config.S3_ENDPOINT, config.S3_ACCESS_KEY_ID].some((value) => value !== undefined);
  if (s3Settings && config.S3_BUCKET === undefined) {
    return 'S3_BUCKET: must be set when S3_ENDPOINT or the S3 keys are (the store is the embedded one without it)';
  }
  return undefined;
}

/**
 * Why the relying party cannot work, if it cannot: every origin must be a bare http(s) origin whose host
 * is the RP ID or under it (the browser refuses anything else), and the accounts app, where the ceremonies
 * run, must be one of them.
 */
function relyingPartyProblem(rpID: string, origins: string[], accountsUrl: string): string | undefined {
  if (origins.length === 0) return 'WEBAUTHN_RP_ORIGINS: must list at least one origin';
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return `WEBAUTHN_RP_ORIGINS: ${origin} is not a URL`;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) {
      return `WEBAUTHN_RP_ORIGINS: ${origin} must be an http(s) origin without path or trailing slash`;
    }
    if (url.hostname !== rpID && !url.hostname.endsWith(`.${rpID}`)) {
      return `WEBAUTHN_RP_ORIGINS: the host of ${origin} is not ${rpID} (WEBAUTHN_RP_ID) or under it`;
    }
  }
  if (!origins.includes(new URL(accountsUrl).origin)) {
    return `ACCOUNTS_URL: ${accountsUrl} must be one of WEBAUTHN_RP_ORIGINS (passkeys are checked there)`;
  }
  return undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
