// The types we use of libheif's JavaScript build that heic-to 1.5.2 ships (its `src/lib/libheif-without-unsafe-eval.js`,
// compiled without eval, so the apps' CSP lets it run). Its package does not export that file: the shared Next
// configuration aliases `heic-to/libheif` to it (config/next.config.mjs), and heif.ts imports it on demand only.
declare module 'heic-to/libheif' {
  export interface HeifImage {
    get_width(): number;
    get_height(): number;
    /** Fills `target` (RGBA, the image's size) with the decoded picture, or answers null. */
    display(target: ImageData, done: (result: ImageData | null) => void): void;
    free(): void;
  }
  export interface Libheif {
    HeifDecoder: new () => { decoder: unknown; decode(bytes: ArrayBuffer): HeifImage[] };
    heif_context_free(context: unknown): void;
  }
  const buildLibheif: () => Libheif;
  export default buildLibheif;
}
