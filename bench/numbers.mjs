// Small helpers the benchmarks share for their command lines and figures.

/** The option `name` of parseArgs' `values` as a positive integer, or a throw naming it. */
export function positiveOption(values, name) {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

/** A figure rounded to two decimals. */
export function round(value) {
  return Math.round(value * 100) / 100;
}
