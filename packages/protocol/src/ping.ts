// GET /ping (public): `{"message":"pong","id":"<build id>"}` (docs/protocol.md#ping). Clients use it to check that
// an origin is an API server of this protocol before saving it (developer settings).
import { z } from 'zod';

export const pingResponseSchema = z.object({ message: z.literal('pong'), id: z.string().optional() });
export type PingResponse = z.infer<typeof pingResponseSchema>;
