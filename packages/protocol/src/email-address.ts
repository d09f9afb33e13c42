// The e-mail address rule (docs/protocol.md#conventions) on its own, without zod: the sign-in forms check an
// address with it on their first load, and `common.ts` builds the server's schema on it.

/** What is wrong with an address for mail (see `emailAddressProblem`). */
export type EmailAddressProblem = 'empty' | 'form' | 'domain';

export const emailForm = /^[^\s@]+@[^\s@]+$/;
/** A hostname label: letters (any script), digits and marks, with inner hyphens, 1 to 63 characters. */
const domainLabel = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
/** A top-level domain: letters only (none is numeric), or an IDN in its xn-- form. */
const topLevelDomain = /^(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]{1,59})$/u;
/** Names that never reach a mail server on the internet (RFC 2606, RFC 6761, RFC 7686 and common LAN names). */
const localTopLevelDomains = new Set([
  'localhost',
  'localdomain',
  'local',
  'lan',
  'home',
  'internal',
  'invalid',
  'test',
  'example',
  'onion',
  'arpa',
]);

/**
 * Why `address` (already trimmed and lower-cased) is not an address that a mail server on the internet
 * could deliver to, or undefined when it is one (docs/protocol.md#conventions): `empty`; `form` when it
 * is not `local@domain` without spaces; `domain` when the domain is not an internet host name, i.e.
 * at least two dot-separated labels of letters, digits and inner hyphens, a top-level domain of
 * letters (so no IP address, bracketed or not), and no local name such as `localhost` or `.local`.
 */
export function emailAddressProblem(address: string): EmailAddressProblem | undefined {
  if (address === '') return 'empty';
  if (!emailForm.test(address)) return 'form';
  const domain = address.slice(address.indexOf('@') + 1);
  if (domain.length > 253) return 'domain';
  const labels = domain.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !labels.every((label) => domainLabel.test(label))) return 'domain';
  if (!topLevelDomain.test(tld) || localTopLevelDomains.has(tld)) return 'domain';
  return undefined;
}
