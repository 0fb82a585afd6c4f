/**
 * The Chart.js UMD bundle, read from the installed `chart.js` package so it can be inlined into a
 * report that opens offline.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/** The minified Chart.js UMD bundle (defines `window.Chart`), read once. */
export function chartJsSource(): string {
  if (cached === undefined) {
    const require = createRequire(import.meta.url);
    const main = require.resolve('chart.js');
    cached = readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
  }
  return cached;
}
