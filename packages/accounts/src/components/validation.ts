// What the sign-in forms check before they talk to the server, each problem as the key of its
// message. E-mail addresses follow the server's own rule, the protocol's `emailAddressProblem`
// (docs/protocol.md#conventions: trimmed, lower-cased, `local@domain` without spaces at an internet
// domain, at most 320 characters), so the form refuses nothing the server would take and says why;
// passwords need at least 8 characters.
import type { ParseKeys } from 'i18next';

import { emailAddressProblem } from '@ente/protocol/email-address.ts';

/** The minimum length of a new password. */
export const minPasswordLength = 8;

/** The longest referral: the server keeps `source` = `web:<referral>` up to 256 characters. */
export const maxReferralLength = 256 - 'web:'.length;

/** The form of an e-mail address that is sent and stored (docs/protocol.md#conventions). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function emailProblem(email: string): ParseKeys<'accounts'> | undefined {
  const normalized = normalizeEmail(email);
  if (normalized.length > 320) return 'form_email_invalid';
  switch (emailAddressProblem(normalized)) {
    case 'empty':
      return 'form_email_required';
    case 'form':
      return 'form_email_invalid';
    case 'domain':
      return 'form_email_domain';
    case undefined:
      return undefined;
  }
}

export function newPasswordProblem(password: string): ParseKeys<'accounts'> | undefined {
  if (!password) return 'form_password_required';
  // Counted in code points, so that a password of emoji is not measured in UTF-16 halves.
  if (Array.from(password).length < minPasswordLength) return 'form_password_too_short';
  return undefined;
}

export function confirmationProblem(password: string, confirmation: string): ParseKeys<'accounts'> | undefined {
  return password === confirmation ? undefined : 'form_password_mismatch';
}
