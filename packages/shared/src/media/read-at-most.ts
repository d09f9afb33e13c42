// Reading what someone else wrote (a thumbnail, an original, a live photo, an entry of its ZIP) whole into memory,
// never past a cap: the server and other sharers are untrusted, and a read without one lets them take the tab's
// memory. Each app sets its own caps.

/** The bytes of `stream`, rejecting with `tooLarge()` as soon as they pass `limit` (the rest is not read). */
export async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Uint8Array(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
}

/** A pass-through that errors with `tooLarge()` once more than `limit` bytes went through it. */
export function capBytes(limit: number, tooLarge: () => Error): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      if (total > limit) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
}
