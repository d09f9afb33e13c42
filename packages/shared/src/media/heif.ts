// HEIC/HEIF stills in the workers of the photos app (upload, viewer) and the cast screen (the browser's own decoder
// where it has one, libheif in a worker otherwise; docs/decisions.md#the-photos-app). A file is HEIF by its ISO BMFF
// `ftyp` box, never by its name. The browser's createImageBitmap is always tried first (Safari 17+ decodes HEIC);
// otherwise libheif-js's WebAssembly build of libheif is loaded on demand, the first time such a file is met (its
// glue, about 90 KB, as a chunk of its own; libheif.wasm, about 1.4 MB, as an asset of the app) and decodes here,
// in the worker. Nothing of ours is logged (libheif-js itself writes a line to the console for a file it cannot
// parse).

/** Major brands that name a HEIF picture or sequence coded with HEVC. */
const hevcBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
/** Generic HEIF brands, which AVIF files carry too. */
const genericBrands = new Set(['mif1', 'msf1']);
/** Brands that make a generic HEIF file an AVIF one (browsers decode AVIF themselves). */
const avifBrands = new Set(['avif', 'avis']);

/** The bytes to read from the start of a file to tell whether it is HEIF. */
export const HEIF_SNIFF_BYTES = 64;

function brandAt(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

/**
 * Whether these first bytes of a file open a HEIC/HEIF picture: an `ftyp` box whose major brand is a HEVC one, or
 * a generic HEIF brand (`mif1`, `msf1`) that no AVIF brand accompanies.
 */
export function isHeifHeader(bytes: Uint8Array): boolean {
  if (bytes.length < 12 || brandAt(bytes, 4) !== 'ftyp') return false;
  const major = brandAt(bytes, 8);
  if (hevcBrands.has(major)) return true;
  if (!genericBrands.has(major)) return false;
  const boxSize = Math.min(bytes.length, new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0));
  const compatible: string[] = [];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) compatible.push(brandAt(bytes, offset));
  return !compatible.some((brand) => avifBrands.has(brand));
}

/** Whether a file (a Blob) is HEIC/HEIF, from its first bytes. */
export async function isHeif(file: Blob): Promise<boolean> {
  return isHeifHeader(new Uint8Array(await file.slice(0, HEIF_SNIFF_BYTES).arrayBuffer()));
}

/**
 * How a viewer shows an original: `asIs` when it is no HEIF or the browser decodes it itself, `convert` (to JPEG,
 * in the worker) when it is HEIF the browser cannot decode.
 */
export type DisplayPlan = 'asIs' | 'convert';

export function displayPlan(heif: boolean, browserDecodes: boolean): DisplayPlan {
  return heif && !browserDecodes ? 'convert' : 'asIs';
}

/** Whether this browser decodes the picture itself (createImageBitmap exists and accepts it). */
export async function browserDecodes(file: Blob): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return false;
  try {
    (await createImageBitmap(file)).close();
    return true;
  } catch {
    return false;
  }
}

/** A picture decoded by libheif: RGBA rows, `width * height * 4` bytes (the shape of an ImageData). */
export interface HeifPixels {
  data: Uint8ClampedArray<ArrayBuffer>;
  width: number;
  height: number;
}

/** What we use of libheif-js's WebAssembly build (its own typings leave out the decoder classes). */
interface HeifImage {
  get_width(): number;
  get_height(): number;
  /** Fills `target.data` (RGBA, the image's size) with the decoded picture and answers it, or answers null. */
  display(target: HeifPixels, done: (result: HeifPixels | null) => void): void;
  free(): void;
}
interface Libheif {
  HeifDecoder: new () => { decoder: unknown; decode(bytes: ArrayBuffer): HeifImage[] };
  heif_context_free(context: unknown): void;
}

let libheif: Promise<Libheif> | undefined;
let wasmBinary: ArrayBuffer | undefined;

/** For Node and tests, which have no app to fetch it from: libheif's WebAssembly as these bytes. */
export function provideLibheifWasm(binary: ArrayBuffer): void {
  wasmBinary = binary;
  libheif = undefined;
}

/**
 * libheif.wasm compiled. `new URL(…, import.meta.url)` makes webpack emit the package's file as an asset of the app
 * (/_next/static/media/, cached as immutable) and gives its URL. Compiled while it downloads when it comes as
 * `application/wasm` (as scripts/serve-static.mjs and docs/self-hosting.md serve it), else from its bytes.
 */
async function compiledLibheif(): Promise<WebAssembly.Module> {
  if (wasmBinary) return WebAssembly.compile(wasmBinary);
  const response = await fetch(new URL('libheif-js/libheif-wasm/libheif.wasm', import.meta.url));
  if (!response.ok) throw new Error(`libheif.wasm: HTTP ${response.status}`);
  if (response.headers.get('Content-Type')?.startsWith('application/wasm'))
    return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

function loadLibheif(): Promise<Libheif> {
  libheif ??= Promise.all([import('libheif-js/libheif-wasm/libheif.js'), compiledLibheif()]).then(
    ([{ default: buildLibheif }, compiled]) => {
      // The build instantiates synchronously (a worker may); handing it the compiled module keeps it from fetching
      // the file again by its own (synchronous) XMLHttpRequest.
      const heif = buildLibheif({
        instantiateWasm: (imports: WebAssembly.Imports, ready: (instance: WebAssembly.Instance) => unknown) =>
          ready(new WebAssembly.Instance(compiled, imports)),
      }) as unknown as Libheif;
      if (typeof heif.HeifDecoder !== 'function') throw new Error('libheif did not start');
      return heif;
    },
  );
  // A failed load (offline) may succeed on the next file.
  libheif.catch(() => (libheif = undefined));
  return libheif;
}

/** Past this a HEIF file is not read whole into the worker to be decoded (a hostile or mislabelled huge file). */
export const HEIF_MAX_DECODE_BYTES = 200 * 1024 * 1024;
/** Past this a HEIF picture's declared size is not allocated as RGBA pixels (about 400 MB at 100 Mpx). */
const HEIF_MAX_DECODE_PIXELS = 100_000_000;

/** Why libheif was not asked to decode a file: too big to read, or declaring too many pixels to allocate. */
class HeifTooLargeError extends Error {}

/** Whether a picture of these declared dimensions may be decoded into memory. */
export function heifPixelsAllowed(width: number, height: number): boolean {
  return width > 0 && height > 0 && width * height <= HEIF_MAX_DECODE_PIXELS;
}

/** The first picture of a HEIF file decoded by libheif, as RGBA pixels. */
export async function decodeHeifPixels(file: Blob): Promise<HeifPixels> {
  if (file.size > HEIF_MAX_DECODE_BYTES) throw new HeifTooLargeError('the HEIF file is too large to decode');
  const heif = await loadLibheif();
  const decoder = new heif.HeifDecoder();
  const images = decoder.decode(await file.arrayBuffer());
  try {
    const image = images[0];
    if (!image) throw new Error('no picture in the HEIF file');
    const width = image.get_width();
    const height = image.get_height();
    if (!heifPixelsAllowed(width, height)) throw new HeifTooLargeError('the HEIF picture is too large to decode');
    const target: HeifPixels = { data: new Uint8ClampedArray(width * height * 4), width, height };
    return await new Promise<HeifPixels>((resolve, reject) =>
      image.display(target, (result) => (result ? resolve(result) : reject(new Error('HEIF decoding failed')))),
    );
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) heif.heif_context_free(decoder.decoder);
  }
}

const asImageData = ({ data, width, height }: HeifPixels) => new ImageData(data, width, height);

/**
 * The upload's image decoder for HEIF (registered with `registerImageDecoder`, so it runs only after the browser's
 * own decoder failed): undefined for any other file, without loading libheif, and for one too large to decode
 * (the upload then gets a placeholder thumbnail).
 */
export async function decodeHeif(file: Blob): Promise<ImageBitmap | undefined> {
  if (!(await isHeif(file))) return undefined;
  let pixels: HeifPixels;
  try {
    pixels = await decodeHeifPixels(file);
  } catch (error) {
    if (error instanceof HeifTooLargeError) return undefined;
    throw error;
  }
  return createImageBitmap(asImageData(pixels));
}

const HEIF_JPEG_QUALITY = 0.92;

/** A HEIF picture as a JPEG the viewer can show (decoded by libheif, encoded by an OffscreenCanvas). */
async function heifToJpeg(file: Blob): Promise<Blob> {
  const pixels = await decodeHeifPixels(file);
  const canvas = new OffscreenCanvas(pixels.width, pixels.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.putImageData(asImageData(pixels), 0, 0);
  return canvas.convertToBlob({ type: 'image/jpeg', quality: HEIF_JPEG_QUALITY });
}

/** The original as the viewer should get it: as is, or converted to JPEG when it is HEIF the browser cannot show. */
export async function displayableOriginal(file: Blob): Promise<Blob> {
  const heif = await isHeif(file);
  if (displayPlan(heif, heif && (await browserDecodes(file))) === 'asIs') return file;
  return heifToJpeg(file);
}
