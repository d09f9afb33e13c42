import { appTheme, themeModes } from './theme.ts';

test.each(themeModes)('the %s theme has its mode', (mode) => {
  expect(appTheme(mode).palette.mode).toBe(mode);
});

test('Inter first, and a type scale from 10 to 48px', () => {
  const { typography } = appTheme('dark');
  expect(typography.fontFamily?.split(',')[0]).toBe('Inter');
  const variants = [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'subtitle1',
    'subtitle2',
    'body1',
    'body2',
    'button',
    'caption',
    'overline',
  ] as const;
  const sizes = variants.map((variant) => remToPx(String(typography[variant].fontSize)));
  expect(Math.min(...sizes)).toBe(10);
  expect(Math.max(...sizes)).toBe(48);
});

test('the critical colour is red in both themes', () => {
  for (const mode of themeModes) {
    const { r, g, b } = rgb(appTheme(mode).palette.critical.main);
    expect(r).toBeGreaterThan(g + 60);
    expect(r).toBeGreaterThan(b + 60);
  }
});

describe.each(themeModes)('contrast in the %s theme (WCAG AA, 4.5:1)', (mode) => {
  const { palette } = appTheme(mode);
  const surfaces = {
    background: palette.background.default,
    paper: palette.background.paper,
    // In the dark theme a dialog's paper is lightened by MUI's elevation overlay (about 17% white).
    dialog: mode === 'dark' ? blend(palette.background.paper, '#ffffff', 0.17) : palette.background.paper,
  };
  const pairs: [string, string, string][] = [
    ...Object.entries(surfaces).flatMap(([name, surface]): [string, string, string][] => [
      [`text on ${name}`, palette.text.primary, surface],
      [`secondary text on ${name}`, palette.text.secondary, surface],
      [`primary on ${name}`, palette.primary.main, surface],
      [`critical on ${name}`, palette.critical.main, surface],
    ]),
    ['primary button', palette.primary.contrastText, palette.primary.main],
    ['secondary button', palette.secondary.contrastText, palette.secondary.main],
    ['critical button', palette.critical.contrastText, palette.critical.main],
    ['offline banner', palette.background.paper, palette.text.primary],
  ];
  test.each(pairs)('%s', (_name, foreground, background) => {
    expect(contrast(foreground, background)).toBeGreaterThanOrEqual(4.5);
  });
});

function remToPx(size: string): number {
  const rem = /^([\d.]+)rem$/.exec(size);
  if (!rem?.[1]) throw new Error(`Not a rem size: ${size}`);
  return Number(rem[1]) * 16;
}

function rgb(hex: string): { r: number; g: number; b: number } {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const value = parseInt(match[1], 16);
  return { r: value >> 16, g: (value >> 8) & 0xff, b: value & 0xff };
}

function blend(base: string, over: string, alpha: number): string {
  const [a, b] = [rgb(base), rgb(over)];
  const mix = (x: number, y: number) => Math.round(x * (1 - alpha) + y * alpha);
  return `#${[mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

function contrast(foreground: string, background: string): number {
  const [lighter, darker] = [luminance(foreground), luminance(background)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

function luminance(hex: string): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const { r, g, b } = rgb(hex);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
