// Build settings of the shared code: the only module of packages/shared that reads process.env.
// Next inlines `process.env.NEXT_PUBLIC_…` at build time only when the name is written out in full,
// so each variable is referenced literally.

/** The API origin used when the user has not stored one (see origins.ts). */
export const buildApiOrigin: string = withoutTrailingSlash(
  process.env.NEXT_PUBLIC_ENTE_ENDPOINT || 'https://api.ente.com',
);

/** The address of the accounts app (passkeys). */
export const buildAccountsAppOrigin: string = withoutTrailingSlash(
  process.env.NEXT_PUBLIC_ENTE_ACCOUNTS_URL || 'https://accounts.ente.com',
);

/** The address of the cast app, which a screen opens to show an album (the photos app's "Play on a screen"). */
export const buildCastAppOrigin: string = withoutTrailingSlash(
  process.env.NEXT_PUBLIC_ENTE_CAST_URL || 'https://cast.ente.io',
);

/**
 * The origins of the family's web apps, where the accounts app may send a person back after a passkey
 * check (comma list; unset: none but the accounts app itself, docs/protocol.md#passkeys).
 */
export const buildAppOrigins: readonly string[] = (process.env.NEXT_PUBLIC_ENTE_APP_ORIGINS ?? '')
  .split(',')
  .map(withoutTrailingSlash)
  .filter((origin) => origin !== '');

/** True in `next dev`; logs then also go to the console. */
export const isDevBuild: boolean = process.env.NODE_ENV === 'development';

function withoutTrailingSlash(url: string): string {
  return url.trim().replace(/\/+$/, '');
}
