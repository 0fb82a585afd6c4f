// Two builds of `parl reward` (--threads THREADS, default 1; --out FILE) against the JSON floor, run
// alternately on one JSONL file: wall seconds and CPU seconds (user + system, all threads) of each
// process, from /usr/bin/time. On a shared machine the wall times of one run swing by 2×; the CPU
// seconds, and the medians over rounds, are what to compare.
//
//   [THREADS=N] node bench/reward-ab.mjs INPUT.jsonl BEFORE_BIN AFTER_BIN [ROUNDS=5]
//
// BEFORE_BIN and AFTER_BIN are `bin/parl.js` of two checkouts (each built); INPUT is a file written
// by bench/label.mjs or any spec §5 JSONL. Outputs go next to INPUT and are deleted.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [input, beforeBin, afterBin, roundsArg] = process.argv.slice(2);
if (input === undefined || beforeBin === undefined || afterBin === undefined) throw new Error('usage: reward-ab.mjs INPUT BEFORE_BIN AFTER_BIN [ROUNDS]');
const rounds = Number(roundsArg ?? 5);
/** `--threads` of both builds (THREADS, default 1). */
const threads = process.env.THREADS ?? '1';
const floorScript = join(dirname(fileURLToPath(import.meta.url)), 'json-floor.mjs');
const out = join(dirname(input), 'reward-ab.out.jsonl');

/** Wall and CPU seconds of one process writing `out`. */
function timed(args) {
  rmSync(out, { force: true });
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [wall, user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { wall, cpu: user + sys };
}

const cases = {
  floor: [floorScript, input, out],
  before: [beforeBin, 'reward', '--in', input, '--out', out, '--threads', threads],
  after: [afterBin, 'reward', '--in', input, '--out', out, '--threads', threads],
};
const runs = { floor: [], before: [], after: [] };
console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (let round = 0; round < rounds; round++) {
  // Alternate the order of the two builds from round to round.
  const order = round % 2 === 0 ? ['floor', 'before', 'after'] : ['floor', 'after', 'before'];
  for (const name of order) runs[name].push(timed(cases[name]));
}
rmSync(out, { force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const floorWall = median(runs.floor.map((r) => r.wall));
const floorCpu = median(runs.floor.map((r) => r.cpu));
for (const [name, list] of Object.entries(runs)) {
  const wall = median(list.map((r) => r.wall));
  const cpu = median(list.map((r) => r.cpu));
  console.log(
    `${name.padEnd(7)} wall ${list.map((r) => r.wall.toFixed(2)).join(' ')} (median ${wall.toFixed(2)} s, ${(floorWall / wall).toFixed(2)}× floor)` +
      `  cpu ${list.map((r) => r.cpu.toFixed(2)).join(' ')} (median ${cpu.toFixed(2)} s, ${(floorCpu / cpu).toFixed(2)}× floor)`,
  );
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
