// For tests only: the photos endpoints the library uses (docs/protocol.md#photos, #trash, #public-links) as msw
// handlers over an in-memory store for one signed-in user: collections and their files stamped with one
// increasing clock (the one diff rule: a change to a collection's files moves its `updationTime` too), diffs
// paged `pageSize` rows at a time with `hasMore`, the trash, and public links. Requests are validated with
// the @ente/protocol schemas and recorded. Tests act as "another client" through the methods that change
// the store directly (with rows they encrypt themselves).
import { http, HttpResponse } from 'msw';

import {
  createPublicLinkRequestSchema,
  trashFilesRequestSchema,
  updatePublicLinkRequestSchema,
  type PublicLink,
  type TrashEntry,
} from '@ente/protocol/photos-trash-links.ts';
import {
  addFilesRequestSchema,
  createCollectionRequestSchema,
  moveFilesRequestSchema,
  removeFilesRequestSchema,
  renameCollectionRequestSchema,
  shareCollectionRequestSchema,
  type Collection,
  type PhotoFile,
} from '@ente/protocol/photos.ts';

export const apiOrigin = 'https://api.ente.com';
export const fakeUserID = 7;
export const fakeEmail = 'joan@example.org';
export const fakeToken = 'fake-token-of-user-7';

/** A request as the fake received it. */
export type PhotosRequest = Record<'method' | 'path', string> & { query: Record<string, string>; body: unknown };

type Body = Record<string, unknown>;

export class FakePhotosServer {
  readonly collections = new Map<number, Collection>();
  /** By collection id, then file id: the file as that collection holds it. */
  readonly files = new Map<number, Map<number, PhotoFile>>();
  readonly trash = new Map<number, TrashEntry>();
  readonly requests: PhotosRequest[] = [];
  /** Rows per diff page. */
  pageSize = 2;
  /** Every request gets no answer (a network error). */
  offline = false;
  private clock = 1_000;
  private nextID = 100;

  /** A time later than every earlier one (µs). */
  tick(): number {
    this.clock += 10;
    return this.clock;
  }

  id(): number {
    return this.nextID++;
  }

  /** Adds (or replaces) a collection as another client would; its `updationTime` is now. */
  putCollection(collection: Omit<Collection, 'updationTime'>): Collection {
    const row = { ...collection, updationTime: this.tick() };
    this.collections.set(row.id, row);
    if (!this.files.has(row.id)) this.files.set(row.id, new Map());
    return row;
  }

  /** Puts a file into a collection (a new one, or a change), moving the collection's time too. */
  putFile(file: Omit<PhotoFile, 'updationTime' | 'isDeleted'>, isDeleted = false): PhotoFile {
    const time = this.tick();
    const row: PhotoFile = { ...file, isDeleted, updationTime: time };
    this.files.get(file.collectionID)?.set(file.id, row);
    this.touch(file.collectionID, time);
    return row;
  }

  /** The file leaves the collection (its row says isDeleted). */
  removeFile(collectionID: number, fileID: number): void {
    const row = this.files.get(collectionID)?.get(fileID);
    if (row) this.putFile(row, true);
  }

  private touch(collectionID: number, time: number): void {
    const collection = this.collections.get(collectionID);
    if (collection) this.collections.set(collectionID, { ...collection, updationTime: time });
  }

  get handlers() {
    return [
      this.route('get', '/collections/v2', (_, query) => {
        const since = Number(query.sinceTime ?? 0);
        const collections = [...this.collections.values()].filter((c) => c.updationTime > since);
        return HttpResponse.json({ collections });
      }),
      this.route('get', '/collections/v2/diff', (_, query) => {
        const held = [...(this.files.get(Number(query.collectionID))?.values() ?? [])];
        return HttpResponse.json(this.page(held, Number(query.sinceTime ?? 0), (row) => row.updationTime));
      }),
      this.route('get', '/trash/v2/diff', (_, query) => {
        return HttpResponse.json(this.page([...this.trash.values()], Number(query.sinceTime ?? 0), (e) => e.updatedAt));
      }),
      this.route('post', '/collections', (body) => {
        const parsed = createCollectionRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        const { encryptedKey, keyDecryptionNonce, encryptedName, nameDecryptionNonce, type } = parsed.data;
        const collection = this.putCollection({
          id: this.id(),
          owner: { id: fakeUserID, email: fakeEmail, name: '', role: 'OWNER' },
          encryptedKey,
          keyDecryptionNonce,
          name: '',
          encryptedName,
          nameDecryptionNonce,
          type,
          attributes: { version: 0 },
          sharees: [],
          publicURLs: [],
          app: 'photos',
        });
        return HttpResponse.json({ collection });
      }),
      this.route('post', '/collections/rename', (body) => {
        const parsed = renameCollectionRequestSchema.safeParse(body);
        const collection = parsed.success && this.collections.get(parsed.data.collectionID);
        if (!parsed.success || !collection) return typed('BAD_REQUEST', 400);
        const { encryptedName, nameDecryptionNonce } = parsed.data;
        this.collections.set(collection.id, {
          ...collection,
          encryptedName,
          nameDecryptionNonce,
          updationTime: this.tick(),
        });
        return HttpResponse.json({});
      }),
      this.route('post', '/collections/add-files', (body) => {
        const parsed = addFilesRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        for (const item of parsed.data.files) this.copyFile(item, parsed.data.collectionID);
        return HttpResponse.json({});
      }),
      this.route('post', '/collections/move-files', (body) => {
        const parsed = moveFilesRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        for (const item of parsed.data.files) {
          this.copyFile(item, parsed.data.toCollectionID);
          this.removeFile(parsed.data.fromCollectionID, item.id);
        }
        return HttpResponse.json({});
      }),
      this.route('post', '/collections/v3/remove-files', (body) => {
        const parsed = removeFilesRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        for (const id of parsed.data.fileIDs) this.removeFile(parsed.data.collectionID, id);
        return HttpResponse.json({});
      }),
      this.route('post', '/collections/restore-files', (body) => {
        const parsed = addFilesRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        for (const item of parsed.data.files) {
          const entry = this.trash.get(item.id);
          if (!entry) return typed('BAD_REQUEST', 400);
          this.trash.set(item.id, { ...entry, isRestored: true, updatedAt: this.tick() });
          this.putFile({ ...entry.file, ...item, collectionID: parsed.data.collectionID });
        }
        return HttpResponse.json({});
      }),
      this.route('post', '/files/trash', (body) => {
        const parsed = trashFilesRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        for (const { fileID, collectionID } of parsed.data.items) {
          const row = this.files.get(collectionID)?.get(fileID);
          if (!row || row.isDeleted) return typed('FILE_NOT_FOUND_IN_ALBUM', 404);
          for (const [id, held] of this.files) if (held.get(fileID)?.isDeleted === false) this.removeFile(id, fileID);
          const time = this.tick();
          const entry = { file: row, isDeleted: false, isRestored: false, deleteBy: time + 30, createdAt: time };
          this.trash.set(fileID, { ...entry, updatedAt: time });
        }
        return HttpResponse.json({});
      }),
      this.route('post', '/trash/delete', (body) => {
        for (const id of (body as { fileIDs: number[] }).fileIDs) {
          const entry = this.trash.get(id);
          if (entry) this.trash.set(id, { ...entry, isDeleted: true, updatedAt: this.tick() });
        }
        return HttpResponse.json({});
      }),
      this.route('delete', '/collections/v3/:id', (_, query, params) => {
        const collection = this.collections.get(Number(params.id));
        if (!collection) return typed('NOT_FOUND', 404);
        if (query.keepFiles !== 'true' && query.keepFiles !== 'false') return typed('BAD_REQUEST', 400);
        const live = [...(this.files.get(collection.id)?.values() ?? [])].some((row) => !row.isDeleted);
        if (query.keepFiles === 'true' && live) return typed('COLLECTION_NOT_EMPTY', 409);
        this.collections.set(collection.id, { ...collection, isDeleted: true, updationTime: this.tick() });
        return HttpResponse.json({});
      }),
      this.route('get', '/users/public-key', () => typed('NOT_FOUND', 404)),
      this.route('post', '/collections/share', (body) => {
        return shareCollectionRequestSchema.safeParse(body).success
          ? HttpResponse.json({ sharees: [] })
          : typed('BAD_REQUEST', 400);
      }),
      this.route('post', '/collections/share-url', (body) => {
        const parsed = createPublicLinkRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        const link: PublicLink = {
          url: 'https://photos.example/shared-albums?t=ABCDEFGHJK',
          deviceLimit: 0,
          validTill: 0,
          enableDownload: true,
          enableCollect: parsed.data.enableCollect ?? false,
          enableComment: false,
          enableJoin: false,
          passwordEnabled: false,
        };
        this.setLink(parsed.data.collectionID, link);
        return HttpResponse.json({ result: link });
      }),
      this.route('put', '/collections/share-url', (body) => {
        const parsed = updatePublicLinkRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', 400);
        const { collectionID, passHash, nonce, opsLimit, memLimit, disablePassword, ...rest } = parsed.data;
        const link = this.collections.get(collectionID)?.publicURLs?.[0] as PublicLink | undefined;
        if (!link) return typed('NOT_FOUND', 404);
        const password = passHash ? { passwordEnabled: true, nonce, opsLimit, memLimit } : {};
        const next = { ...link, ...rest, ...password, ...(disablePassword ? { passwordEnabled: false } : {}) };
        this.setLink(collectionID, next);
        return HttpResponse.json({ result: next });
      }),
    ];
  }

  private setLink(collectionID: number, link: PublicLink): void {
    const collection = this.collections.get(collectionID);
    if (collection)
      this.collections.set(collectionID, { ...collection, publicURLs: [link], updationTime: this.tick() });
  }

  /** A file of the user's (from any collection holding it) into another collection, under the key given. */
  private copyFile(item: { id: number; encryptedKey: string; keyDecryptionNonce: string }, collectionID: number): void {
    const source = [...this.files.values()].map((held) => held.get(item.id)).find((row) => row && !row.isDeleted);
    if (!source) throw new Error(`no file ${String(item.id)}`);
    this.putFile({ ...source, ...item, collectionID });
  }

  private page<Row>(rows: Row[], since: number, time: (row: Row) => number) {
    const newer = rows.filter((row) => time(row) > since).sort((a, b) => time(a) - time(b));
    return { diff: newer.slice(0, this.pageSize), hasMore: newer.length > this.pageSize };
  }

  private route(
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    answer: (body: Body, query: Record<string, string>, params: Record<string, string>) => Response,
  ) {
    return http[method](`${apiOrigin}${path}`, async ({ request, params }) => {
      const url = new URL(request.url);
      const query = Object.fromEntries(url.searchParams);
      const text = method === 'get' || method === 'delete' ? '' : await request.text();
      const body = (text ? JSON.parse(text) : {}) as Body;
      this.requests.push({ method: method.toUpperCase(), path: url.pathname, query, body });
      if (this.offline) return HttpResponse.error();
      if (request.headers.get('X-Auth-Token') !== fakeToken) return typed('UNAUTHORIZED', 401);
      return answer(body, query, params as Record<string, string>);
    });
  }
}

function typed(code: string, status: number): Response {
  return HttpResponse.json({ code, message: code }, { status });
}
