// Types of brand-icons.mjs for the TypeScript code that tests it.
export function normalisedName(text: string): string;
export function brandIndex(
  icons: readonly { title: string; slug: string; hex: string; aliases?: unknown }[],
  iconsVersion: string,
): { version: string; icons: Record<string, string>; names: Record<string, string> };
