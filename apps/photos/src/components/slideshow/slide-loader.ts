// The slides a slideshow holds: each loaded once through the page's loader (the media loader's object URL) and
// decoded before it is shown, so that a slide never appears half drawn (one that does not decode is loaded once
// more before it counts as failed); those the show no longer needs (neither shown, fading out, nor next) are released.
import type { GalleryFile } from '../../library/types.ts';

/** A slide's image as the page's loader gives it; `release` frees what the loader made for it. */
export interface Slide {
  url: string;
  release?: () => void;
}

/** The page's loader: the image of a photo, or of a live photo (media/, through the page's wiring). */
export type LoadSlide = (file: GalleryFile) => Promise<Slide>;

interface Entry {
  promise: Promise<Slide>;
  slide?: Slide;
  released: boolean;
}

/** Resolves once the image at `url` is decoded (where the browser can say so: `HTMLImageElement.decode`). */
export async function decodeImage(url: string): Promise<void> {
  const image = new Image();
  image.src = url;
  if (typeof image.decode === 'function') await image.decode();
}

export class SlideLoader {
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly files: readonly GalleryFile[],
    private readonly loadSlide: LoadSlide,
    private readonly decode: (url: string) => Promise<void> = decodeImage,
  ) {}

  /** Slide `index` loaded and decoded (the same promise while it is kept). */
  load(index: number): Promise<Slide> {
    const kept = this.entries.get(index);
    if (kept) return kept.promise;
    const file = this.files[index];
    if (!file) return Promise.reject(new Error('no such slide'));
    const entry: Entry = { released: false, promise: Promise.resolve(undefined as never) };
    entry.promise = this.open(file, entry, true);
    // A failure is the caller's to handle; this keeps an unawaited one from being reported as unhandled.
    entry.promise.catch(() => undefined);
    this.entries.set(index, entry);
    return entry.promise;
  }

  private async open(file: GalleryFile, entry: Entry, mayRetry: boolean): Promise<Slide> {
    const slide = await this.loadSlide(file);
    // Released while it loaded: freed at once.
    if (entry.released) slide.release?.();
    else entry.slide = slide;
    try {
      await this.decode(slide.url);
    } catch (error) {
      // The media loader's LRU of originals may have revoked the URL before it decoded (loads piling up as the person
      // skips ahead): loaded again, it comes as a fresh URL. A file that really does not decode fails again.
      if (!mayRetry || entry.released) throw error;
      slide.release?.();
      entry.slide = undefined;
      return this.open(file, entry, false);
    }
    return slide;
  }

  /** Releases every slide but those of `needed`. */
  keep(needed: ReadonlySet<number>): void {
    for (const [index, entry] of this.entries) {
      if (needed.has(index)) continue;
      entry.released = true;
      entry.slide?.release?.();
      this.entries.delete(index);
    }
  }

  /** Releases them all (the show ended). */
  dispose(): void {
    this.keep(new Set());
  }
}
