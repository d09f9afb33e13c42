// Pages of a collection's file diff, kept serialized. A page is a function of the collection, the cursor,
// the view (owner or not) and the collection's latest change: every change a client must see stamps its
// collection_files rows with a time past every earlier one, in commit order (services/photo-clock.ts), so
// while that latest time stands, the same request gets the same bytes. A page of 2,500 files costs tens of
// milliseconds of database, mapping and JSON; an album that many devices or a public link's visitors
// fetch at once costs that once. Who may read the collection is checked on every request, before this.
//
// Requests for a page being made wait for it rather than making it again. Memory is bounded by the
// bytes kept (least recently used out first), each page charged its key and bookkeeping too. Pages under
// 4 KiB are not kept: they are cheap to make, and Node carves such buffers out of a shared 8 KiB pool that a
// kept one would hold whole, so a client naming many cursors could fill the memory with near-empty pages.
// A page larger than a quarter of the bound is not kept either.

/** What the server keeps of them: 64 MiB, about 25 pages of 2,500 files. */
export const DIFF_PAGES_BYTES = 64 * 1024 * 1024;

/** The smallest page kept (half of Buffer.poolSize: from here on a buffer has memory of its own). */
export const SMALLEST_KEPT_PAGE = 4096;

/** What a kept page costs besides its bytes: its key (UTF-16) and the map's and buffer's bookkeeping. */
const entryCost = (key: string) => 2 * key.length + 256;

export class DiffPages {
  readonly #maxBytes: number;
  /** In least-recently-used order: a hit moves to the end. */
  readonly #pages = new Map<string, { bytes: Buffer; cost: number }>();
  readonly #making = new Map<string, Promise<Buffer>>();
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The page under `key`, made by `make` when it is not kept. */
  page(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.#pages.get(key);
    if (kept) {
      this.#pages.delete(key);
      this.#pages.set(key, kept);
      return Promise.resolve(kept.bytes);
    }
    const making = this.#making.get(key);
    if (making) return making;
    const made = make()
      .then((bytes) => {
        this.#keep(key, bytes);
        return bytes;
      })
      .finally(() => this.#making.delete(key));
    this.#making.set(key, made);
    return made;
  }

  /** What the kept pages cost now (their bytes, keys and bookkeeping). */
  get bytes(): number {
    return this.#bytes;
  }

  #keep(key: string, bytes: Buffer): void {
    const cost = bytes.length + entryCost(key);
    if (bytes.length < SMALLEST_KEPT_PAGE || cost > this.#maxBytes / 4 || this.#pages.has(key)) return;
    this.#pages.set(key, { bytes, cost });
    this.#bytes += cost;
    for (const [oldKey, old] of this.#pages) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#pages.delete(oldKey);
      this.#bytes -= old.cost;
    }
  }
}
