// The viewer's arithmetic, pure: zoom (a scale and an offset, kept within bounds, zooming about a point so that
// what is under the pointer or between the fingers stays there), what a touch gesture was (a swipe to the
// previous or next file, or nothing), and the file information as text.
import { streamPlaintextSize } from '@ente/crypto/stream-sizes.ts';

import { FileType, type GalleryFile } from '../../library/types.ts';
import { fileTime } from '../gallery/grid-model.ts';

export interface Zoom {
  scale: number;
  /** The image's offset from the centre of the stage, px (at this scale). */
  x: number;
  y: number;
}

export const noZoom: Zoom = { scale: 1, x: 0, y: 0 };
export const maxScale = 8;
/** What a double click or the zoom button goes to from the fit. */
export const stepScale = 2.5;

/**
 * The zoom `factor` times the current one about `point` (px from the stage's centre), clamped to 1…maxScale; back
 * at 1 the image is centred again.
 */
export function zoomAbout(zoom: Zoom, factor: number, point: { x: number; y: number }): Zoom {
  const scale = Math.min(maxScale, Math.max(1, zoom.scale * factor));
  if (scale === 1) return noZoom;
  const ratio = scale / zoom.scale;
  // The point under the pointer keeps its place: offset' = point - (point - offset) · ratio.
  return { scale, x: point.x - (point.x - zoom.x) * ratio, y: point.y - (point.y - zoom.y) * ratio };
}

/**
 * The zoom panned by (dx, dy), the image kept covering the stage's centre: it can move by at most half of
 * what it overflows (`stage` is the stage's size, the image assumed to fit it at scale 1).
 */
export function pan(zoom: Zoom, dx: number, dy: number, stage: { width: number; height: number }): Zoom {
  if (zoom.scale === 1) return noZoom;
  const limitX = (stage.width * (zoom.scale - 1)) / 2;
  const limitY = (stage.height * (zoom.scale - 1)) / 2;
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
  return { scale: zoom.scale, x: clamp(zoom.x + dx, limitX), y: clamp(zoom.y + dy, limitY) };
}

/** The wheel's zoom factor for a wheel event's deltaY (pixels; a notch is about 100). */
export function wheelFactor(deltaY: number): number {
  return Math.exp(-deltaY / 300);
}

/**
 * What a one-finger gesture was: a swipe to the next file (leftwards) or the previous one (rightwards) when it
 * went mostly sideways, far enough (60 px), fast enough (under 800 ms); else nothing.
 */
export function swipeOf(dx: number, dy: number, ms: number): 'next' | 'previous' | undefined {
  if (ms > 800 || Math.abs(dx) < 60 || Math.abs(dx) < Math.abs(dy) * 1.5) return undefined;
  return dx < 0 ? 'next' : 'previous';
}

/** A size in bytes the way people read it (1 decimal from KB on, the locale's digits). */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** What the info panel says of a file beyond its own metadata (from the media loader's EXIF reading). */
export interface FileDetails {
  /** "Make Model", e.g. "Apple iPhone 15". */
  camera?: string;
  /** A place's name, when one is known; else the coordinates are shown. */
  place?: string;
  width?: number;
  height?: number;
}

export interface InfoRow {
  key: 'name' | 'date' | 'size' | 'dimensions' | 'place' | 'camera';
  value: string;
}

/** The rows of the info panel: those it has something for, in a fixed order. */
export function infoRows(file: GalleryFile, details: FileDetails | undefined, locale: string): InfoRow[] {
  const rows: InfoRow[] = [{ key: 'name', value: file.metadata.title }];
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' });
  const taken = fileTime(file) / 1000;
  // A time no Date holds would make format() throw; the row is left out instead.
  if (Number.isFinite(new Date(taken).getTime())) rows.push({ key: 'date', value: date.format(taken) });
  // The server gives the encrypted object's size; the photo's own is that less each chunk's 17 bytes.
  if (file.fileSize !== undefined) {
    rows.push({ key: 'size', value: formatBytes(streamPlaintextSize(file.fileSize), locale) });
  }
  const width = details?.width ?? file.width;
  const height = details?.height ?? file.height;
  if (width && height) rows.push({ key: 'dimensions', value: `${width} × ${height}` });
  const { latitude, longitude } = file.metadata;
  if (details?.place) rows.push({ key: 'place', value: details.place });
  else if (latitude !== undefined && longitude !== undefined && (latitude !== 0 || longitude !== 0)) {
    const degrees = new Intl.NumberFormat(locale, { maximumFractionDigits: 5 });
    rows.push({ key: 'place', value: `${degrees.format(latitude)}, ${degrees.format(longitude)}` });
  }
  if (details?.camera) rows.push({ key: 'camera', value: details.camera });
  return rows;
}

/** Whether the file is shown as a video (videos; live photos show their image, their video on demand). */
export function isVideo(file: GalleryFile): boolean {
  return file.metadata.fileType === FileType.video;
}
