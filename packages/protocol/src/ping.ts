// GET /ping (public): `{"message":"pong","id":"<build id>"}` (docs/protocol.md#ping). Clients use it to check that
// an origin is an API server of this protocol before saving it (developer settings).
import * as z from 'zod/mini';

export const pingResponseSchema = z.object({ message: z.literal('pong'), id: z.optional(z.string()) });
export type PingResponse = z.infer<typeof pingResponseSchema>;
