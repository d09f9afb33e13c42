// The one assertion service tests make of a refusal: the promise rejects with an HttpError of this status
// whose body has this typed `code` (a string) or is exactly this body (an object).
import assert from 'node:assert/strict';

import type { HttpError } from '../http/errors.ts';

export async function refused(
  promise: Promise<unknown>,
  status: number,
  expected?: string | Record<string, string>,
): Promise<void> {
  await assert.rejects(promise, (error: HttpError) => {
    assert.equal(error.status, status, error.message);
    if (typeof expected === 'string') assert.equal(error.body.code, expected);
    else if (expected) assert.deepEqual(error.body, expected);
    return true;
  });
}
