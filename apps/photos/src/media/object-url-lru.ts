// Object URLs of decrypted media, the most recently used kept up to a bound: the one an evicted entry had is
// revoked, so its Blob can be freed. Object URLs live in memory only (nothing is written to storage).

export class ObjectUrlLru {
  private readonly entries = new Map<string, string>();
  private readonly capacity: number;
  private readonly revoke: (url: string) => void;

  constructor(capacity: number, revoke: (url: string) => void = (url) => URL.revokeObjectURL(url)) {
    this.capacity = capacity;
    this.revoke = revoke;
  }

  /** The URL under `key`, made the most recently used. */
  get(key: string): string | undefined {
    const url = this.entries.get(key);
    if (url === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, url);
    return url;
  }

  /** Keeps `url` under `key` (revoking one it replaces) and evicts the least recently used beyond the bound. */
  set(key: string, url: string): void {
    const previous = this.entries.get(key);
    if (previous !== undefined && previous !== url) this.revoke(previous);
    this.entries.delete(key);
    this.entries.set(key, url);
    while (this.entries.size > this.capacity) {
      const [oldestKey, oldestURL] = this.entries.entries().next().value as [string, string];
      this.entries.delete(oldestKey);
      this.revoke(oldestURL);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Revokes every URL. */
  clear(): void {
    for (const url of this.entries.values()) this.revoke(url);
    this.entries.clear();
  }
}
