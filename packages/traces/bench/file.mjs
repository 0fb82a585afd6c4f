// `parl trace` on a large OTLP JSONL file: spans/s of the command (`node ../cli/bin/parl.js trace
// --in FILE --out /dev/null --findings FILE`) and of `readTraces` in-process, beside a floor
// measured in the same run on the same file: reading it as a stream, splitting lines and
// JSON.parse of each (the least any reader must do). The command's peak RSS comes from
// /usr/bin/time when it is there, else from the in-process run's sampled RSS.
//
//   pnpm --filter @parl/traces build && pnpm --filter @parl/cli build
//   SIZE_MB=1024 node bench/file.mjs      # default 256
import { spawnSync } from 'node:child_process';
import { closeSync, createReadStream, existsSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readTraces } from '../dist/index.js';
import { otlpTrace } from './otlp-trace.mjs';

const SIZE_MB = Number(process.env.SIZE_MB ?? 256);
const dir = mkdtempSync(join(tmpdir(), 'parl-trace-bench-'));
const file = join(dir, 'spans.jsonl');
const bin = fileURLToPath(new URL('../../cli/bin/parl.js', import.meta.url));
const mb = (b) => (b / 1024 / 1024).toFixed(1);

// Write the file in batches: ~18.8 KiB and 49 spans per trace.
const fd = openSync(file, 'w');
let traces = 0;
let bytes = 0;
while (bytes < SIZE_MB * 1024 * 1024) {
  const batch = [];
  for (let k = 0; k < 500; k++) batch.push(otlpTrace(traces++));
  const text = `${batch.join('\n')}\n`;
  writeSync(fd, text);
  bytes += Buffer.byteLength(text);
}
closeSync(fd);
const spansPerTrace = JSON.parse(otlpTrace(0)).resourceSpans[0].scopeSpans[0].spans.length;
const spans = traces * spansPerTrace;

async function time(fn) {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  return { s: Number(process.hrtime.bigint() - t0) / 1e9, value };
}

const floor = await time(async () => {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line !== '') n += JSON.parse(line).resourceSpans.length;
  return n;
});

let peak = process.memoryUsage().rss;
const rss0 = peak;
const lib = await time(async () => {
  let n = 0;
  for await (const _ of readTraces(createReadStream(file))) if (++n % 500 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  return n;
});

let cli;
if (existsSync(bin)) {
  const timeBin = existsSync('/usr/bin/time') ? ['/usr/bin/time', ['-f', '%M', process.execPath]] : [process.execPath, []];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(timeBin[0], [...timeBin[1], bin, 'trace', '--in', file, '--out', '/dev/null', '--findings', join(dir, 'findings.jsonl')], { encoding: 'utf8' });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const maxKb = timeBin[1].length > 0 ? Number(r.stderr.trim().split('\n').at(-1)) : NaN;
  cli = { s, status: r.status, maxRss: Number.isFinite(maxKb) ? `${(maxKb / 1024).toFixed(1)} MiB peak RSS` : 'peak RSS not measured' };
}

console.log(`@parl/traces file bench — Node ${process.version}, ${traces} traces × ${spansPerTrace} spans = ${spans} spans, ${mb(statSync(file).size)} MiB OTLP JSONL`);
console.log(`floor (stream + split lines + JSON.parse): ${floor.s.toFixed(2)} s  ${Math.round(spans / floor.s)} spans/s`);
console.log(`readTraces in-process:                     ${lib.s.toFixed(2)} s  ${Math.round(spans / lib.s)} spans/s  = ${(lib.s / floor.s).toFixed(2)}× floor; RSS ${mb(rss0)} → peak ${mb(peak)} MiB`);
if (cli !== undefined) console.log(`parl trace (the command, exit ${cli.status}):        ${cli.s.toFixed(2)} s  ${Math.round(spans / cli.s)} spans/s  = ${(cli.s / floor.s).toFixed(2)}× floor; ${cli.maxRss}`);
rmSync(dir, { recursive: true, force: true });
