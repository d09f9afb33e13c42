// QR codes drawn in the browser (the otpauth URI of two-factor setup). The QR library is fetched on
// first use only, so no page carries it in its first load. The picture is an SVG data URL, which the
// Content-Security-Policy allows for images (img-src data:).
import { log } from '@ente/shared/log.ts';

/** The QR code of `text` as a `data:image/svg+xml` URL: dark modules on white, with a quiet zone. */
export async function qrCodeDataURL(text: string): Promise<string> {
  const qrcode = await import('qrcode');
  const svg = await qrcode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

/** Like qrCodeDataURL, but undefined (logged) when the library cannot be loaded or draws nothing. */
export async function tryQrCodeDataURL(text: string): Promise<string | undefined> {
  try {
    return await qrCodeDataURL(text);
  } catch (e) {
    log.warn('Could not draw the QR code', e);
    return undefined;
  }
}
