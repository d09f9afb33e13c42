// Matchers such as toBeInTheDocument for every jsdom suite.
require('@testing-library/jest-dom');
// findBy… and waitFor give up after 1 s by default: too short when the gate runs every workspace's tests at once on
// two cores and a page derives a key for real before it shows what is awaited.
require('@testing-library/dom').configure({ asyncUtilTimeout: 10_000 });
