// Types for the tests of this package: jest's globals (test, expect, jest, …, as jest injects them)
// and the jest-dom matchers. Tests use the globals rather than importing them from @jest/globals,
// because @swc/jest does not hoist `jest.mock` above the imports when `jest` is imported.
import type * as jestGlobals from '@jest/globals';

import type {} from '@testing-library/jest-dom/jest-globals';

declare global {
  const jest: typeof jestGlobals.jest;
  const expect: typeof jestGlobals.expect;
  const test: typeof jestGlobals.test;
  const it: typeof jestGlobals.it;
  const describe: typeof jestGlobals.describe;
  const beforeAll: typeof jestGlobals.beforeAll;
  const beforeEach: typeof jestGlobals.beforeEach;
  const afterAll: typeof jestGlobals.afterAll;
  const afterEach: typeof jestGlobals.afterEach;
}
