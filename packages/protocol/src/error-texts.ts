// The texts of the server's middleware errors (docs/protocol.md#errors), without zod: the sign-in pages
// recognise them in their first load, which must not pull zod (errors.ts re-exports them).

/** The `{error}` texts of middleware errors (token checks, rate limits). */
export const middlewareErrorTexts = {
  missingToken: 'missing token',
  invalidToken: 'invalid token',
  tokenExpired: 'token expired',
  rateLimited: 'Rate limit breached, try later',
} as const;
