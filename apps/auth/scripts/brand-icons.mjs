// Writes the brand icons of simple-icons into the auth app's public folder before `next build`
// (apps/auth/package.json), so that each icon is a file of its own, fetched only when a card shows it:
//   public/brand-icons/<slug>.svg   one file per icon (24×24 path, drawn by the page as a CSS mask)
//   public/brand-icons/index.json   {version, icons: {slug: hex}, names: {name: slug}}
// `names` holds the normalised titles and aliases that differ from their slug (normalisation as in
// apps/auth/src/services/brand-icons.ts: accents stripped, lower-case, letters and digits only). The
// folder is generated (ignored by git) and rewritten only when the simple-icons version changes.
//   node scripts/brand-icons.mjs [--force]
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
// The data file is an exported path; the package folder is two levels up from it.
const packageDir = path.resolve(path.dirname(require.resolve('simple-icons/icons.json')), '..');
const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
const outDir = path.join(import.meta.dirname, '..', 'public', 'brand-icons');
const indexPath = path.join(outDir, 'index.json');

/** Same rule as `normalisedName` of src/services/brand-icons.ts. */
export function normalisedName(text) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** The index of the icons of simple-icons' data file. */
export function brandIndex(icons, iconsVersion) {
  const hexes = {};
  const names = {};
  for (const icon of icons) hexes[icon.slug] = icon.hex.toLowerCase();
  for (const icon of icons) {
    const aliases = icon.aliases ?? {};
    const candidates = [
      icon.title,
      ...(aliases.aka ?? []),
      ...(aliases.dup ?? []).map((dup) => dup.title),
      ...Object.values(aliases.loc ?? {}),
    ];
    for (const candidate of candidates) {
      const name = normalisedName(candidate);
      // A name that is some icon's slug, or already taken, stays with that icon.
      if (!name || name in hexes || name in names) continue;
      names[name] = icon.slug;
    }
  }
  return { version: iconsVersion, icons: hexes, names };
}

function main() {
  const force = process.argv.includes('--force');
  if (!force && existsSync(indexPath)) {
    try {
      if (JSON.parse(readFileSync(indexPath, 'utf8')).version === version) return;
    } catch {
      // Unreadable: write it again.
    }
  }
  const icons = JSON.parse(readFileSync(path.join(packageDir, 'data', 'simple-icons.json'), 'utf8'));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const iconDir = path.join(packageDir, 'icons');
  const files = new Set(readdirSync(iconDir));
  let written = 0;
  for (const icon of icons) {
    const file = `${icon.slug}.svg`;
    if (!files.has(file)) continue;
    writeFileSync(path.join(outDir, file), readFileSync(path.join(iconDir, file)));
    written++;
  }
  // Last, so that an interrupted run is redone.
  writeFileSync(indexPath, JSON.stringify(brandIndex(icons, version)));
  console.log(`brand-icons: ${written} icons of simple-icons ${version}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
