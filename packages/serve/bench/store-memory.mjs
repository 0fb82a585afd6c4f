// Live memory of the episode store at the server's default bound (issue 39 item 2): the records
// of the rewards-memory.mjs body (102,504 small spec §5 records with an id, about 160 bytes each)
// held as the server holds them after a POST /v1/rewards (putPosted: the posted text and the
// request's resolved config), into an EpisodeStore of 100,000. Prints the JavaScript heap and
// array buffers kept after full garbage collections, against the posted bytes of the records held
// (the baseline: what the texts alone take), per held record and as a multiple of the 16 MiB body.
// Usage (after pnpm --filter @parl/serve build): node --expose-gc bench/store-memory.mjs
import { resolveRewardConfig } from '@parl/core';
import { EpisodeStore } from '@parl/serve';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const RECORDS = 102_504;
const MAX = 100_000;
const BODY_BYTES = 16 * 1024 * 1024;
const config = resolveRewardConfig({});
const record = (i) => JSON.stringify({ id: `ep-${i}`, training_step: i % 1000, num_subagents: 1 + (i % 30), assigned_subtasks: 1 + (i % 30), completed_subtasks: i % 30, r_perf: (i % 10) / 10, stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }] });

const store = new EpisodeStore(MAX);
globalThis.gc();
const before = process.memoryUsage();
let heldBytes = 0;
for (let i = 0; i < RECORDS; i++) {
  // A fresh string each, as the server makes one from the posted bytes.
  const text = Buffer.from(record(i)).toString('utf8');
  store.putPosted(`ep-${i}`, text, config);
  if (i >= RECORDS - MAX) heldBytes += text.length;
}
globalThis.gc();
globalThis.gc();
const after = process.memoryUsage();
const live = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
const mib = (x) => (x / 1048576).toFixed(1);
console.log(
  `${store.size} records held: ${mib(live)} MiB live (heap ${mib(after.heapUsed - before.heapUsed)} MiB), ${(live / store.size).toFixed(0)} B per record; ` +
    `their posted texts ${mib(heldBytes)} MiB (baseline), ${(live / heldBytes).toFixed(2)}× of it; ${(live / BODY_BYTES).toFixed(2)}× a 16 MiB body`,
);
