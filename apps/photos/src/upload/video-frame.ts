// A video's thumbnail frame, captured on the main thread (a <video> element exists only here; decoding is the
// browser's media pipeline, off this thread): seek to 1 s, or 10 % of a shorter video, and take the frame as an
// ImageBitmap for the upload worker to scale and encode. Undefined when the browser cannot play the video (the
// worker then makes a placeholder); a rotated video is drawn as the browser displays it.

const CAPTURE_TIMEOUT_MS = 15_000;

/** Where to take the frame: 1 s in, or 10 % of a video shorter than 10 s. */
export function frameTime(duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return 0;
  return Math.min(1, duration * 0.1);
}

export async function captureVideoFrame(file: Blob, signal?: AbortSignal): Promise<ImageBitmap | undefined> {
  if (typeof document === 'undefined') return undefined;
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  const once = (event: string) =>
    new Promise<void>((resolve, reject) => {
      video.addEventListener(event, () => resolve(), { once: true });
      video.addEventListener('error', () => reject(new Error('video error')), { once: true });
      signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CAPTURE_TIMEOUT_MS);
  });
  try {
    const loaded = once('loadeddata');
    video.src = url;
    await Promise.race([loaded, timeout]);
    const seeked = once('seeked');
    video.currentTime = frameTime(video.duration);
    await Promise.race([seeked, timeout]);
    if (!video.videoWidth || !video.videoHeight) return undefined;
    return await createImageBitmap(video);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}
