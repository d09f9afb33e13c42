// Recognising PostgreSQL errors that a caller turns into an answer (both drivers report the SQLSTATE
// as `code`).

/** A unique constraint refused the row (SQLSTATE 23505): another request wrote it first. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
