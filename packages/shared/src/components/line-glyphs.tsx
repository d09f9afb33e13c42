// Icons drawn as lines (two units wide, round ends) on Glyph's 24-unit grid, in the text colour: those of the
// sign-in pages and their forms. A module of their own, because webpack keeps every export of a module that
// any page uses: the pages that draw only Glyph or MoreGlyph (the public album's) do not carry these.
import { Glyph, type GlyphProps } from './Glyph.tsx';

const line = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

/** A tick: done. */
export const TickGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M5 12.5l4.5 4.5L19 7.5" {...line} strokeWidth={2.4} />
  </Glyph>
);

const eye = 'M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z';

/** An open eye: show what is hidden. */
export const EyeGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d={eye} {...line} />
    <circle cx="12" cy="12" r="3" />
  </Glyph>
);

/** An eye struck through: hide it again. */
export const EyeOffGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d={eye} {...line} />
    <circle cx="12" cy="12" r="3" />
    <path d="M4 3.5l16 17" {...line} />
  </Glyph>
);

/** Two sheets, one over the other: copy. */
export const CopyGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M15.5 3.5H6a2 2 0 0 0-2 2V16" {...line} />
    <rect x="8" y="7.5" width="12" height="13" rx="2" {...line} />
  </Glyph>
);

/** An arrow down onto a line: download. */
export const DownloadGlyph = (props: GlyphProps) => (
  <Glyph {...props}>
    <path d="M12 4v11M7 10.5l5 5 5-5M5 20h14" {...line} />
  </Glyph>
);
