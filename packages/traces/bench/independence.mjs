// Benchmark of the independence check of findings: the hash-indexed check of @parl/traces against
// the pairwise comparison it replaced (reimplemented below as the baseline, measured in the same
// run), on U sub-agents that ran one per turn, each with 4 KiB of unrelated input and output.
//
//   pnpm --filter @parl/traces build && node bench/independence.mjs
//   UNITS=800 node bench/independence.mjs
import { independenceOf } from '../dist/index.js';

const UNITS = Number(process.env.UNITS ?? 400);
const CHARS = 4096;

function words(tag) {
  let s = '';
  for (let k = 0; s.length < CHARS; k++) s += `${tag}w${k} `;
  return s;
}
const units = Array.from({ length: UNITS }, (_, j) => ({ input: words(`in${j}x`), output: words(`out${j}x`) }));

// The pairwise check as it was before the index: every later input against every earlier output.
const normalise = (text) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
function quotesPairwise(output, input) {
  const out = normalise(output);
  if (out.length < 12) return undefined;
  const inp = normalise(input);
  if (out.length <= 24) return inp.includes(out);
  for (let i = 0; i + 24 <= out.length; i += 12) if (inp.includes(out.slice(i, i + 24))) return true;
  return inp.includes(out.slice(out.length - 24));
}
function pairwise(list) {
  let judged = true;
  for (let j = 1; j < list.length; j++) {
    for (let i = 0; i < j; i++) {
      const q = quotesPairwise(list[i].output, list[j].input);
      if (q === true) return 'dependent';
      if (q === undefined) judged = false;
    }
  }
  return judged && list.length > 1 ? 'likely' : 'unknown';
}

function time(fn) {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
}

const indexed = time(() => independenceOf(units));
const baseline = time(() => pairwise(units));
if (indexed.value !== baseline.value) throw new Error(`verdicts differ: ${indexed.value} against ${baseline.value}`);
console.log(`independence of ${UNITS} sub-agents × ${CHARS} chars each way (${indexed.value})`);
console.log(`  pairwise (baseline): ${baseline.ms.toFixed(0)} ms`);
console.log(`  hash-indexed:        ${indexed.ms.toFixed(0)} ms  (${(baseline.ms / indexed.ms).toFixed(1)}× faster)`);
