// What the exports hold (docs/formats.md, writing): Ente's plain text, the file names of Ente's exports,
// Aegis' plain vault JSON and the printable sheet. The encrypted export wraps the plain text in the crypto
// worker (`encryptEnteExport`); Google Authenticator's QR codes come from `encodeMigration`.
import { saveBlobAs } from '@ente/shared/save-file.ts';

import { codeURI } from '../code-uri.ts';
import type { CodeData } from '../types.ts';

export type ExportKind = 'ente-encrypted' | 'ente-plain' | 'html' | 'aegis';

/** `YYYYMMDD-HHMMSS` in local time. */
export function fileStamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${String(date.getFullYear())}${two(date.getMonth() + 1)}${two(date.getDate())}-` +
    `${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`
  );
}

export function exportFileName(kind: ExportKind, date: Date): string {
  const stamp = fileStamp(date);
  switch (kind) {
    case 'ente-encrypted':
      return `ente-auth-codes-${stamp}.txt`;
    case 'ente-plain':
      return `ente-auth-codes-plaintext-${stamp}.txt`;
    case 'html':
      return `ente-auth-codes-plainhtml-${stamp}.html`;
    case 'aegis':
      return `aegis-export-plain-${stamp}.json`;
  }
}

/** Ente's plain-text export: one URI per line with its codeDisplay, literal commas written `%2C`. */
export function entePlainText(codes: readonly CodeData[]): string {
  return codes.map((code) => codeURI(code).replaceAll(',', '%2C')).join('\n') + (codes.length ? '\n' : '');
}

/** Aegis' plain vault (version 1, database version 3): tags become groups, the pin "favorite". */
export function aegisJSON(codes: readonly CodeData[], uuid: () => string = () => crypto.randomUUID()): string {
  const groups = new Map<string, string>();
  for (const tag of codes.flatMap((code) => code.display.tags)) if (!groups.has(tag)) groups.set(tag, uuid());
  const entries = codes.map((code) => ({
    type: code.type,
    uuid: uuid(),
    name: code.account,
    issuer: code.issuer,
    note: code.display.note,
    favorite: code.display.pinned,
    icon: null,
    info: {
      secret: code.secret,
      algo: code.algorithm.toUpperCase(),
      digits: code.digits,
      ...(code.type === 'hotp' ? { counter: code.counter } : { period: code.period }),
    },
    groups: code.display.tags.map((tag) => groups.get(tag)),
  }));
  const db = { version: 3, entries, groups: [...groups].map(([name, id]) => ({ uuid: id, name })) };
  return `${JSON.stringify({ version: 1, header: { slots: null, params: null }, db }, null, 2)}\n`;
}

export interface SheetLabels {
  title: string;
  warning: string;
  issuer: string;
  account: string;
  details: string;
}

/**
 * A printable, self-contained HTML page (no script, inline styles): one block per code with its names,
 * its parameters and the QR code of its URI (`qrSVG`, from the `qrcode` library). Every text is escaped.
 */
export function htmlSheet(
  codes: readonly CodeData[],
  labels: SheetLabels,
  qrSVG: (text: string) => string,
  lang: string,
): string {
  const blocks = codes.map((code) => {
    const details = [
      code.type.toUpperCase(),
      code.algorithm.toUpperCase(),
      String(code.digits),
      code.type === 'hotp' ? `#${String(code.counter)}` : `${String(code.period)} s`,
    ].join(' · ');
    return `<section class="code">
<div class="qr">${qrSVG(sheetURI(code))}</div>
<dl>
<dt>${escapeHTML(labels.issuer)}</dt><dd>${escapeHTML(code.issuer)}</dd>
<dt>${escapeHTML(labels.account)}</dt><dd>${escapeHTML(code.account)}</dd>
<dt>${escapeHTML(labels.details)}</dt><dd>${escapeHTML(details)}</dd>
</dl>
</section>`;
  });
  return `<!doctype html>
<html lang="${escapeHTML(lang)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHTML(labels.title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; }
.code { display: flex; gap: 1.5rem; align-items: center; padding: 1rem 0; border-bottom: 1px solid #ccc; break-inside: avoid; }
.qr svg { width: 160px; height: 160px; }
dt { font-weight: bold; }
dd { margin: 0 0 0.5rem; overflow-wrap: anywhere; }
</style>
</head>
<body>
<h1>${escapeHTML(labels.title)}</h1>
<p>${escapeHTML(labels.warning)}</p>
${blocks.join('\n')}
</body>
</html>
`;
}

/** The URI a sheet's QR code holds: the code without its note or other apps' parameters (a smaller QR code). */
export function sheetURI(code: CodeData): string {
  return codeURI({ ...code, display: { ...code.display, note: '' }, unknownParams: [] });
}

export function escapeHTML(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);
}

/** Saves `content` as a file through the browser's download. */
export function download(content: string, fileName: string, type: string): void {
  saveBlobAs(new Blob([content], { type }), fileName);
}
