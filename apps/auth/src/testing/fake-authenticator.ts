// For tests only: the authenticator endpoints (docs/protocol.md#authenticator) in msw handlers, in memory,
// for one signed-in user: the wrapped key (404 until set, 409 on a second POST), entities with a unique,
// increasing updatedAt, soft deletes, the diff with the strict `>` and `limit`, and `ifUpdatedAt`
// compare-and-set on PUT and DELETE (409). Requests are validated with the @ente/protocol schemas and
// recorded. Tests act as "another client" through the methods that change the state directly.
import { randomUUID } from 'node:crypto';

import { http, HttpResponse } from 'msw';

import {
  createAuthenticatorKeyRequestSchema,
  createEntityRequestSchema,
  deleteEntityQuerySchema,
  entityDiffQuerySchema,
  updateEntityRequestSchema,
  type Entity,
} from '@ente/protocol/authenticator.ts';

export const apiOrigin = 'https://api.ente.com';
export const fakeUserID = 7;
export const fakeToken = 'fake-token-of-user-7';

export interface AuthenticatorRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** What a write gives the store: the Blob of an entity. */
export type Blob64 = { encryptedData: string; header: string };

export class FakeAuthenticatorServer {
  key: { encryptedKey: string; header: string; createdAt: number } | undefined;
  readonly entities = new Map<string, Entity>();
  readonly requests: AuthenticatorRequest[] = [];
  /** server − local of the fake's clock, in ms. */
  clockOffsetMs = 0;
  private lastUpdatedAt = 0;

  /** The msw handlers of the five endpoints. */
  get handlers() {
    return [
      this.route('get', '/authenticator/key', () => {
        if (!this.key) return typed('NOT_FOUND', '', 404);
        return HttpResponse.json({ userID: fakeUserID, ...this.key });
      }),
      this.route('post', '/authenticator/key', (body) => {
        const parsed = createAuthenticatorKeyRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', parsed.error.message, 400);
        if (this.key) return typed('CONFLICT', 'Key already exists', 409);
        this.setKey(parsed.data);
        return new HttpResponse(null, { status: 200 });
      }),
      this.route('post', '/authenticator/entity', (body) => {
        const parsed = createEntityRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', parsed.error.message, 400);
        if (!this.key) return typed('AUTH_KEY_NOT_CREATED', 'authenticator key not created', 400);
        return HttpResponse.json(this.insert(parsed.data));
      }),
      this.route('put', '/authenticator/entity', (body) => {
        const parsed = updateEntityRequestSchema.safeParse(body);
        if (!parsed.success) return typed('BAD_REQUEST', parsed.error.message, 400);
        if (!this.key) return typed('AUTH_KEY_NOT_CREATED', 'authenticator key not created', 400);
        const current = this.entities.get(parsed.data.id);
        if (!current) return typed('NOT_FOUND', 'no such entity', 404);
        if (current.isDeleted) return typed('BAD_REQUEST', 'entity is already deleted', 400);
        if (parsed.data.ifUpdatedAt !== undefined && parsed.data.ifUpdatedAt !== current.updatedAt) {
          return typed('CONFLICT', 'entity was changed since ifUpdatedAt', 409);
        }
        this.update(parsed.data.id, parsed.data);
        return new HttpResponse(null, { status: 200 });
      }),
      this.route('delete', '/authenticator/entity', (_, query) => {
        const parsed = deleteEntityQuerySchema.safeParse(query);
        if (!parsed.success) return typed('BAD_REQUEST', parsed.error.message, 400);
        const current = this.entities.get(parsed.data.id);
        if (current && parsed.data.ifUpdatedAt !== undefined && parsed.data.ifUpdatedAt !== current.updatedAt) {
          return typed('CONFLICT', 'entity was changed since ifUpdatedAt', 409);
        }
        if (current && !current.isDeleted) this.remove(current.id);
        return new HttpResponse(null, { status: 200 });
      }),
      this.route('get', '/authenticator/entity/diff', (_, query) => {
        const parsed = entityDiffQuerySchema.safeParse(query);
        if (!parsed.success) return typed('BAD_REQUEST', parsed.error.message, 400);
        const { sinceTime, limit } = parsed.data;
        const diff = [...this.entities.values()]
          .filter((entity) => entity.updatedAt > sinceTime)
          .sort((a, b) => a.updatedAt - b.updatedAt)
          .slice(0, limit);
        return HttpResponse.json({ diff, timestamp: this.nowMicros() });
      }),
    ];
  }

  setKey(key: { encryptedKey: string; header: string }) {
    this.key = { encryptedKey: key.encryptedKey, header: key.header, createdAt: this.nowMicros() };
  }

  /** A new entity, as another client would POST it. `updatedAt` forces a time (to make equal times). */
  insert(blob: Blob64, updatedAt = this.nextUpdatedAt()): Entity {
    const entity: Entity = {
      id: randomUUID(),
      userID: fakeUserID,
      encryptedData: blob.encryptedData,
      header: blob.header,
      isDeleted: false,
      createdAt: updatedAt,
      updatedAt,
    };
    this.lastUpdatedAt = Math.max(this.lastUpdatedAt, updatedAt);
    this.entities.set(entity.id, entity);
    return entity;
  }

  update(id: string, blob: Blob64): Entity {
    const current = this.entities.get(id);
    if (!current || current.isDeleted) throw new Error(`no live entity ${id}`);
    const next = {
      ...current,
      encryptedData: blob.encryptedData,
      header: blob.header,
      updatedAt: this.nextUpdatedAt(),
    };
    this.entities.set(id, next);
    return next;
  }

  remove(id: string) {
    const current = this.entities.get(id);
    if (!current) throw new Error(`no entity ${id}`);
    this.entities.set(id, {
      ...current,
      encryptedData: null,
      header: null,
      isDeleted: true,
      updatedAt: this.nextUpdatedAt(),
    });
  }

  /** Live entities. */
  live(): Entity[] {
    return [...this.entities.values()].filter((entity) => !entity.isDeleted);
  }

  requestsTo(method: string, path: string): AuthenticatorRequest[] {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  nowMicros(): number {
    return (Date.now() + this.clockOffsetMs) * 1000;
  }

  private nextUpdatedAt(): number {
    this.lastUpdatedAt = Math.max(this.nowMicros(), this.lastUpdatedAt + 1);
    return this.lastUpdatedAt;
  }

  private route(
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    answer: (body: unknown, query: Record<string, string>) => Response,
  ) {
    return http[method](`${apiOrigin}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      const body: unknown = text ? JSON.parse(text) : undefined;
      const query = Object.fromEntries(url.searchParams);
      this.requests.push({ method: request.method, path, query, body });
      if (request.headers.get('X-Auth-Token') !== fakeToken) {
        return HttpResponse.json({ error: 'invalid token' }, { status: 401 });
      }
      return answer(body, query);
    });
  }
}

function typed(code: string, message: string, status: number) {
  return HttpResponse.json({ code, message }, { status });
}
