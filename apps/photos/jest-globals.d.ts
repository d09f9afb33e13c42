// Types of the globals jest injects into this package's tests (test, expect, jest, …) and of the
// jest-dom matchers. The tests use the injected globals: with @swc/jest, `jest.mock` calls are hoisted
// above the imports only when `jest` is not imported from @jest/globals.
import type * as jestGlobals from '@jest/globals';

import type {} from '@testing-library/jest-dom/jest-globals';

declare global {
  const jest: typeof jestGlobals.jest;
  const expect: typeof jestGlobals.expect;
  const test: typeof jestGlobals.test;
  const describe: typeof jestGlobals.describe;
  const beforeAll: typeof jestGlobals.beforeAll;
  const beforeEach: typeof jestGlobals.beforeEach;
  const afterAll: typeof jestGlobals.afterAll;
  const afterEach: typeof jestGlobals.afterEach;
}
