// For the editor's tests only: codes of a vault, built through the real URI writer and parser so that
// they look exactly like the vault's.
import { codeURI, emptyDisplay, parseCodeURI } from '../../../services/code-uri.ts';
import type { Code, CodeData, CodeDisplay } from '../../../services/types.ts';

let nextID = 0;

/** A TOTP code (SHA-1, 6 digits, 30 s) with the given fields over those defaults. */
export function codeDataOf(
  fields: Partial<Omit<CodeData, 'display'>> & { display?: Partial<CodeDisplay> } = {},
): CodeData {
  return {
    type: 'totp',
    issuer: 'Example',
    account: 'alice@example.com',
    secret: 'JBSWY3DPEHPK3PXP',
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    counter: 0,
    unknownParams: [],
    ...fields,
    display: { ...emptyDisplay(), ...fields.display },
  };
}

/** A code of the vault: the data as the vault reads it back from the URI it stores. */
export function codeOf(fields: Parameters<typeof codeDataOf>[0] = {}): Code {
  const uri = codeURI(codeDataOf(fields));
  nextID += 1;
  return { ...parseCodeURI(uri), id: `code-${nextID}`, updatedAt: 1_700_000_000_000_000 + nextID, uri };
}
