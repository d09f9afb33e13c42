// Brand icons of the cards (docs/product.md#the-codes): simple-icons, one SVG file per icon under
// /brand-icons/ (written by apps/auth/scripts/brand-icons.mjs at build time), found through a small
// index fetched once, after the codes are on screen. A card asks for its icon by the code's
// `codeDisplay.iconID` first (what other apps chose), then by its issuer. Nothing of simple-icons is
// bundled: the browser fetches only the icons of the cards it shows.
import { log } from '@ente/shared/log.ts';

import { hasHiddenText } from './visible-text.ts';

/** What public/brand-icons/index.json holds. */
export interface BrandIndex {
  /** slug → brand colour (hex without #). */
  icons: Record<string, string>;
  /** Normalised titles and aliases that are not a slug → slug. */
  names: Record<string, string>;
}

export interface BrandIcon {
  slug: string;
  /** The brand colour, `#rrggbb`. */
  color: string;
  /** Where the SVG is served. */
  url: string;
}

/** Lower-case letters and digits only, accents stripped (the index is keyed the same way). */
export function normalisedName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** simple-icons' own slug rule (`+` plus, `.` dot, `&` and), for names such as "Dev.to" or "AT&T". */
function slugLike(text: string): string {
  return normalisedName(text.replace(/\+/g, 'plus').replace(/\./g, 'dot').replace(/&/g, 'and'));
}

/** The icon for a code: by `iconID`, then by issuer (whole, as a domain, then its first word). */
export function findBrandIcon(index: BrandIndex, iconID: string, issuer: string): BrandIcon | undefined {
  for (const candidate of candidates(iconID, issuer)) {
    const slug = candidate in index.icons ? candidate : index.names[candidate];
    const hex = slug === undefined ? undefined : index.icons[slug];
    if (slug !== undefined && hex !== undefined) return { slug, color: `#${hex}`, url: `/brand-icons/${slug}.svg` };
  }
  return undefined;
}

function* candidates(iconID: string, givenIssuer: string): Generator<string> {
  // An issuer with characters that draw nothing ("g\u200Boogle") is not the brand it spells without
  // them: no icon lends it a brand's face.
  const issuer = hasHiddenText(givenIssuer) ? '' : givenIssuer;
  for (const text of [iconID, issuer]) {
    const trimmed = text.trim();
    if (!trimmed) continue;
    yield normalisedName(trimmed);
    yield slugLike(trimmed);
  }
  const name = issuer.trim().toLowerCase();
  // A domain ("accounts.google.com", "github.com"): the label before the top-level domain.
  const labels = name.split('.').filter(Boolean);
  if (labels.length >= 2 && !/\s/.test(name)) {
    const label = labels[labels.length - 2];
    if (label) yield normalisedName(label);
  }
  // "Google Workspace" → "google", when the whole name is not an icon. Short words match too much.
  const first = name.split(/[\s:/@|(),-]+/).find(Boolean);
  if (first && first !== name && normalisedName(first).length >= 3) yield normalisedName(first);
}

let loading: Promise<BrandIndex | undefined> | undefined;

/**
 * The index, fetched once per page load (undefined if it cannot be fetched: the cards keep their letter
 * avatars; a later call tries again).
 */
export function loadBrandIndex(fetcher: typeof fetch = fetch): Promise<BrandIndex | undefined> {
  loading ??= (async () => {
    const response = await fetcher('/brand-icons/index.json');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const json: unknown = await response.json();
    if (!isBrandIndex(json)) throw new Error('Unexpected shape');
    return json;
  })().catch((e: unknown) => {
    log.warn('Could not load the brand icon index', e);
    loading = undefined;
    return undefined;
  });
  return loading;
}

function isBrandIndex(value: unknown): value is BrandIndex {
  if (typeof value !== 'object' || value === null) return false;
  const { icons, names } = value as Record<string, unknown>;
  return typeof icons === 'object' && icons !== null && typeof names === 'object' && names !== null;
}

/**
 * Whether a brand colour stands out enough from the card's background to draw the icon in it (WCAG's
 * 3:1 for graphics); otherwise the card draws it in the text colour.
 */
export function readableOn(color: string, background: string): boolean {
  const a = luminance(color);
  const b = luminance(background);
  if (a === undefined || b === undefined) return false;
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) >= 3;
}

function luminance(hex: string): number | undefined {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) return undefined;
  const value = parseInt(match[1], 16);
  const channel = (shift: number) => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
}
