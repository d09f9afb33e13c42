// The address per-address limits count a request under (docs/decisions.md#security-second-pass-addresses-quota-tokens):
// `request.ip` (the right-most address that is not one of TRUST_PROXY's proxies) as an IPv4 address, or
// its /64 for IPv6. Every per-address limit uses this; what a person is shown (the sessions list, the
// login notice) keeps `request.ip` itself.
import type { FastifyRequest } from 'fastify';

import { addressKey } from '../lib/addresses.ts';

/** The key of the request's client address in every per-address limit. */
export function limitAddress(request: FastifyRequest): string {
  return addressKey(request.ip);
}
