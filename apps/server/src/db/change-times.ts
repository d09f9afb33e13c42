// The time of a change that a diff cursor must not miss: microseconds on the database's clock, but always
// past the last time the writer's lock covers, so that times grow strictly in commit order under that
// lock (docs/decisions.md#api-server). The authenticator uses it under its per-user key lock, photos
// under the clocks of db/photo-clock.ts.
import { sql, type Expression, type RawBuilder } from 'kysely';

/** greatest(now in µs on the database's clock, `last` + 1), as int8 (read as a string). */
export function timeAfter(last: Expression<unknown> | RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`greatest((extract(epoch from clock_timestamp()) * 1000000)::bigint, ${last} + 1)`;
}
