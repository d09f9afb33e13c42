// Small helpers the benchmarks share for their command lines, figures and reports.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The load average at the end goes into `report.machine`; the report is printed and written to bench/results/<name>.json. */
export function saveReport(name, report) {
  report.machine.loadAverage1mAtEnd = os.loadavg()[0];
  const json = JSON.stringify(report, null, 2);
  console.log(json);
  const results = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, `${name}.json`), json);
}
