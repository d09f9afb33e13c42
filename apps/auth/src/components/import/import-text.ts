// The import dialog's helpers: a format's name as people know it, and one result from several files
// (the images of one Google Authenticator export, chosen together).
import type { TFunction } from 'i18next';

import type { ImportFormat, ImportResult } from '../../services/import/types.ts';

const brandNames: Record<Exclude<ImportFormat, 'otpauth-list'>, string> = {
  'ente-plain': 'Ente Auth',
  'ente-encrypted': 'Ente Auth',
  aegis: 'Aegis',
  'aegis-encrypted': 'Aegis',
  '2fas': '2FAS',
  '2fas-encrypted': '2FAS',
  'bitwarden-json': 'Bitwarden',
  'bitwarden-csv': 'Bitwarden',
  'google-migration': 'Google Authenticator',
  proton: 'Proton Authenticator',
  'proton-encrypted': 'Proton Authenticator',
  andotp: 'andOTP',
  'andotp-encrypted': 'andOTP',
  'freeotp-plus': 'FreeOTP+',
};

export function formatName(t: TFunction<'import'>, format: ImportFormat): string {
  return format === 'otpauth-list' ? t('format_otpauth_list') : brandNames[format];
}

/** The codes and skipped entries of every file, in order; the first file's format. */
export function mergeResults(results: readonly ImportResult[]): ImportResult {
  const [first] = results;
  if (!first) return { format: 'otpauth-list', codes: [], skipped: [] };
  return {
    format: first.format,
    codes: results.flatMap((result) => result.codes),
    skipped: results.flatMap((result) => result.skipped),
  };
}
