// Pages of a collection's file diff, kept serialized. A page is a function of the collection, the cursor,
// the view (owner or not) and the collection's latest change: every change a client must see stamps its
// collection_files rows with a time past every earlier one, in commit order (services/photo-clock.ts), so
// while that latest time stands, the same request gets the same bytes. A page of 2,500 files costs tens of
// milliseconds of database, mapping and JSON; an album that many devices or a public link's visitors
// fetch at once costs that once. Who may read the collection is checked on every request, before this.
//
// Requests for a page being made wait for it rather than making it again. Memory is bounded by the
// bytes kept (least recently used out first); a page larger than a quarter of that is not kept.

/** What the server keeps of them: 64 MiB, about 25 pages of 2,500 files. */
export const DIFF_PAGES_BYTES = 64 * 1024 * 1024;

export class DiffPages {
  readonly #maxBytes: number;
  /** In least-recently-used order: a hit moves to the end. */
  readonly #pages = new Map<string, Buffer>();
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
      return Promise.resolve(kept);
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

  /** Bytes kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  #keep(key: string, bytes: Buffer): void {
    if (bytes.length > this.#maxBytes / 4 || this.#pages.has(key)) return;
    this.#pages.set(key, bytes);
    this.#bytes += bytes.length;
    for (const [oldKey, old] of this.#pages) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#pages.delete(oldKey);
      this.#bytes -= old.length;
    }
  }
}
