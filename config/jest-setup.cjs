// Matchers such as toBeInTheDocument for every jsdom suite.
require('@testing-library/jest-dom');
