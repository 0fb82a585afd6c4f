// The episode store's bound: 600 000 writes of new ids into a store of 100 000 (the server's
// default maxEpisodes), with the lru-cache-backed EpisodeStore against the Map walked from its
// first key that it replaced (the baseline, written out here), in the same run.
// Usage: node bench/store.mjs   (after pnpm --filter @parl/serve build)
import { EpisodeStore } from '@parl/serve';

const MAX = 100_000;
const WRITES = 600_000;
const time = (fn) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const mapMs = time(() => {
  const m = new Map();
  for (let i = 0; i < WRITES; i++) {
    const id = `e${i}`;
    m.delete(id);
    m.set(id, '{}');
    while (m.size > MAX) m.delete(m.keys().next().value);
  }
});
const storeMs = time(() => {
  const store = new EpisodeStore(MAX);
  for (let i = 0; i < WRITES; i++) store.putPosted(`e${i}`, '{}');
});
console.log(`${WRITES} writes, bound ${MAX}: Map walked from its front ${mapMs.toFixed(0)} ms (${((mapMs * 1000) / WRITES).toFixed(1)} µs/write); EpisodeStore ${storeMs.toFixed(0)} ms (${((storeMs * 1000) / WRITES).toFixed(2)} µs/write); ${(mapMs / storeMs).toFixed(0)}x`);
