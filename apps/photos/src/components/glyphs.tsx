// The icons of the grid and the public album's first screen, drawn here with inline SVG (@ente/shared's Glyph)
// rather than imported from @mui/icons-material, whose icons each bring MUI's SvgIcon component: the public album's
// first load has no other use for it. Each is our own drawing on the 24-unit grid, filled with the text colour.
import { Glyph } from '@ente/shared/components/Glyph.tsx';

type Size = { size?: 'small' | 'medium' };

/** The outlines the marks are cut from, and the tick cut out of them (`fillRule="evenodd"`). */
const tick = 'M6.6 12.4 8 11l2.6 2.6L16 8.2l1.4 1.4-6.8 6.8z';
const square = 'M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z';
const disc = 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20z';
const ring = { fill: 'none', stroke: 'currentColor', strokeWidth: 2 } as const;

/** A ticked checkbox. */
export const CheckedGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <path fillRule="evenodd" d={`${square}${tick}`} />
  </Glyph>
);

/** A checkbox that is partly checked: a bar cut out of the filled square. */
export const PartlyCheckedGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <path fillRule="evenodd" d={`${square}M7 11h10v2H7z`} />
  </Glyph>
);

/** An empty checkbox. */
export const UncheckedGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <rect x="4" y="4" width="16" height="16" rx="2" {...ring} />
  </Glyph>
);

/** A selected cell's mark: a ticked disc. */
export const SelectedGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <path fillRule="evenodd" d={`${disc}${tick}`} />
  </Glyph>
);

/** A cell that is not selected: an empty ring. */
export const NotSelectedGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <circle cx="12" cy="12" r="9" {...ring} />
  </Glyph>
);

/** A video: a triangle in a ring. */
export const VideoGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <circle cx="12" cy="12" r="9" {...ring} />
    <path d="M10 8v8l6-4z" />
  </Glyph>
);

/** A live photo: a dot in a dashed ring. */
export const LiveGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <circle cx="12" cy="12" r="9" {...ring} strokeDasharray="3 2.6" />
    <circle cx="12" cy="12" r="3.5" />
  </Glyph>
);

/** A thumbnail that could not be shown: a picture frame split by a crack. */
export const BrokenImageGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <path
      d="M4 4h16v7l-3-2-4 3-3-3-6 4zM4 15l6-4 3 3 4-3 3 2v8H4z"
      {...ring}
      strokeWidth={1.5}
      strokeLinejoin="round"
    />
  </Glyph>
);

/** Download: an arrow down onto a line. */
export const DownloadGlyph = ({ size }: Size) => (
  <Glyph size={size}>
    <path d="M11 4h2v8.2l3.1-3.1 1.4 1.4-5.5 5.5-5.5-5.5 1.4-1.4 3.1 3.1zM5 18h14v2H5z" />
  </Glyph>
);
