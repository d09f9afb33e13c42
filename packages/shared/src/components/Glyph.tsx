// A small icon drawn with inline SVG (24 × 24 units, the current text colour), the size of MUI's icons (1.5rem,
// 1.25rem small), without MUI's SvgIcon component: the lightest pages draw their few icons with it. Decorative: hidden
// from screen readers, the control it sits in carries the name, unless it is given a `title`: then it is an image of
// that name.
import type { CSSProperties, ReactNode } from 'react';

export function Glyph({
  children,
  size = 'medium',
  title,
}: {
  children: ReactNode;
  size?: 'small' | 'medium';
  title?: string;
}) {
  const style = size === 'small' ? smallStyle : mediumStyle;
  return title ? (
    <svg viewBox="0 0 24 24" role="img" focusable="false" style={style}>
      <title>{title}</title>
      {children}
    </svg>
  ) : (
    <svg viewBox="0 0 24 24" aria-hidden focusable="false" style={style}>
      {children}
    </svg>
  );
}

const mediumStyle: CSSProperties = {
  width: '1em',
  height: '1em',
  fontSize: '1.5rem',
  display: 'inline-block',
  flexShrink: 0,
  fill: 'currentColor',
};
const smallStyle: CSSProperties = { ...mediumStyle, fontSize: '1.25rem' };

/** Three dots one above the other: a menu of more actions. */
export function MoreGlyph() {
  return (
    <Glyph>
      <circle cx="12" cy="5" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="12" cy="19" r="2" />
    </Glyph>
  );
}

type GlyphProps = { size?: 'small' | 'medium'; title?: string };

/** Lines two units wide with round ends, in the text colour: the drawings below are strokes. */
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
