// What a grid cell draws: the file's thumbnail through the component the page hands the grid (the media loader
// decrypts thumbnails into object URLs), a quiet placeholder until then, and a badge for videos and live photos.
import { useTheme } from '@mui/material/styles';
import visuallyHidden from '@mui/utils/visuallyHidden';
import type { ComponentType } from 'react';

import { FileType, type GalleryFile } from '../../library/types.ts';
import { BrokenImageGlyph, LiveGlyph, VideoGlyph } from '../glyphs.tsx';

/** What a thumbnail component is given: the file, and the text its image is named by (the title). */
export interface ThumbnailProps {
  file: GalleryFile;
  alt: string;
}

/**
 * A thumbnail component from a loader hook (`useThumbnail(file)` of ../../media/, called once per rendered cell):
 * the image once its object URL is there, the placeholder until then, marked broken when it `failed`. Make it
 * once (module level or useMemo), not per render.
 */
export function thumbnailFromHook(
  useThumbnail: (file: GalleryFile) => { url?: string; failed?: boolean },
): ComponentType<ThumbnailProps> {
  return function HookThumbnail({ file, alt }: ThumbnailProps) {
    const { url, failed = false } = useThumbnail(file);
    return url ? <ThumbnailImage url={url} alt={alt} /> : <ThumbnailPlaceholder alt={alt} broken={failed} />;
  };
}

/**
 * The decrypted thumbnail, cropped to the square cell. Inline styles (one object for all), not `sx`: the grid mounts
 * these a row at a time while it scrolls (see [Note: Plain cells] in GridRows.tsx).
 */
export function ThumbnailImage({ url, alt }: { url: string; alt: string }) {
  return <img src={url} alt={alt} draggable={false} decoding="async" style={imageStyle} />;
}

const imageStyle = { display: 'block', width: '100%', height: '100%', objectFit: 'cover' } as const;

/** The cell before (or without) its thumbnail: named like the image would be; `broken` when it will not come. */
export function ThumbnailPlaceholder({ alt, broken = false }: { alt: string; broken?: boolean }) {
  const { palette } = useTheme();
  return (
    <div
      role="img"
      aria-label={alt}
      style={{ ...placeholderStyle, background: palette.action.hover, color: palette.text.disabled }}
    >
      {broken && <BrokenImageGlyph />}
    </div>
  );
}

const placeholderStyle = {
  width: '100%',
  height: '100%',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
} as const;

/** The placeholder as a thumbnail component: the grid's default, when the page gives none. */
export function PlaceholderThumbnail({ alt }: ThumbnailProps) {
  return <ThumbnailPlaceholder alt={alt} />;
}

/**
 * "Video" or "Live photo" (`label`, the grid's translation) over a cell's corner, read after the title. Plain elements
 * under the grid's class `gallery-badge` (see [Note: Plain cells] in GridRows.tsx).
 */
export function FileTypeBadge({ fileType, label }: { fileType: FileType; label: string }) {
  if (fileType !== FileType.video && fileType !== FileType.livePhoto) return null;
  const Icon = fileType === FileType.video ? VideoGlyph : LiveGlyph;
  return (
    <span className="gallery-badge">
      <Icon size="small" />
      <span style={visuallyHidden}>{label}</span>
    </span>
  );
}
