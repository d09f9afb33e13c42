// Where the accounts app may send a person after a passkey check (docs/protocol.md#passkeys): checked
// before anything else runs, so that a crafted link cannot hand a sign-in's token to another site.
import { buildAccountsAppOrigin, buildAppOrigins } from '@ente/shared/config.ts';

/** Schemes of Ente's desktop and mobile apps, which pass whatever the host (docs/protocol.md#passkeys). */
const appSchemes = ['ente:', 'enteauth:', 'entelocker:', 'ensu:', 'ente-cli:'];

/**
 * Whether the accounts app may send a person to `target` after a check: an http(s) address on one of the
 * family's configured web app origins (or this app's own), or one of Ente's app schemes (`tauri:` only on
 * localhost). Anything else is refused, so that a crafted link cannot hand the token to another site.
 */
export function isAllowedRedirect(target: string, allowedOrigins: readonly string[] = configuredOrigins()): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:')
    return !url.username && !url.password && allowedOrigins.includes(url.origin);
  if (url.protocol === 'tauri:') return url.hostname === 'localhost';
  return appSchemes.includes(url.protocol);
}

function configuredOrigins(): string[] {
  const origins = [...buildAppOrigins, buildAccountsAppOrigin];
  if (typeof window !== 'undefined') origins.push(window.location.origin);
  return origins.map((origin) => {
    try {
      return new URL(origin).origin;
    } catch {
      return origin;
    }
  });
}

/** A client package as apps send it (`io.ente.auth.web`): letters, digits, dots, dashes, underscores. */
export function isClientPackage(value: string): boolean {
  return /^[A-Za-z0-9._-]{1,128}$/.test(value);
}
