// A small icon drawn with inline SVG (24 × 24 units, the current text colour), the size of MUI's icons (1.5rem,
// 1.25rem small), without MUI's SvgIcon component: the lightest pages draw their few icons with it. Decorative: hidden
// from screen readers, the control it sits in carries the name, unless it is given a `title`: then it is an image of
// that name.
import type { CSSProperties, ReactNode } from 'react';

/** A glyph's size, and its name when it is an image of its own rather than decoration. */
export type GlyphProps = { size?: 'small' | 'medium'; title?: string };

export function Glyph({ children, size = 'medium', title }: GlyphProps & { children: ReactNode }) {
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
