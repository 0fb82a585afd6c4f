/**
 * The width head of the policy network: a distribution over group sizes k = 1..maxCount (a
 * count, not a rule). Its logits are a weighted sum of smooth bumps in log-count space, some
 * placed relative to the number of ready subtasks (k ≈ ready/4, ready/2, ready, 2·ready, …) and
 * some at absolute counts (1, 2, 4, …, 100), with weights the network outputs per state. So the
 * network can put its mode anywhere — ready, a cap such as a concurrency limit, or between the two
 * — and the greedy width is whatever count scores highest in that state.
 *
 * @module
 */
import { MAX_SUBTASKS } from '../../engine/env-config.js';
import type { CountBasis } from '../../policies/count-basis.js';

function bump(lnCount: number, lnCentre: number, spread: number): number {
  const d = lnCount - lnCentre;
  return Math.exp(-(d * d) / (2 * spread * spread));
}

/**
 * The bump values of a basis as flat tables: `absolute[(k − 1) · A + j]` for count k and absolute
 * bump j, and `relative[(ready · maxCount + k − 1) · R + j]` for `ready` ready subtasks (0..MAX_SUBTASKS; row 0 is zeros).
 */
export interface CountTables {
  /** The basis. */
  readonly basis: CountBasis;
  /** `[maxCount, A]`. */
  readonly absolute: Float32Array;
  /** `[MAX_SUBTASKS + 1, maxCount, R]`. */
  readonly relative: Float32Array;
}

/** Tabulate the bumps of `basis` (done once per policy). */
export function countTables(basis: CountBasis): CountTables {
  const C = basis.maxCount;
  const A = basis.absoluteCounts.length;
  const R = basis.relativeCounts.length;
  const absolute = new Float32Array(C * A);
  for (let k = 1; k <= C; k++) {
    for (let j = 0; j < A; j++) absolute[(k - 1) * A + j] = bump(Math.log(k), Math.log(basis.absoluteCounts[j] as number), basis.countSpread);
  }
  const relative = new Float32Array((MAX_SUBTASKS + 1) * C * R);
  for (let ready = 1; ready <= MAX_SUBTASKS; ready++) {
    for (let k = 1; k <= C; k++) {
      const o = (ready * C + k - 1) * R;
      for (let j = 0; j < R; j++) relative[o + j] = bump(Math.log(k / ready), Math.log(basis.relativeCounts[j] as number), basis.countSpread);
    }
  }
  return { basis, absolute, relative };
}

/**
 * The width head's logits for one state: `out[k − 1]` for k = 1..maxCount.
 *
 * @param tables - the tabulated basis
 * @param weights - the network's outputs for this row
 * @param relOffset - where the R relative weights start in `weights` (the A absolute ones follow)
 * @param ready - ready subtasks in this state
 */
export function countLogits(tables: CountTables, weights: Float32Array, relOffset: number, ready: number, out: Float32Array): void {
  const { basis, absolute, relative } = tables;
  const C = basis.maxCount;
  const R = basis.relativeCounts.length;
  const A = basis.absoluteCounts.length;
  const row = Math.min(Math.max(0, ready), MAX_SUBTASKS);
  for (let k = 0; k < C; k++) {
    let v = 0;
    const ro = (row * C + k) * R;
    for (let j = 0; j < R; j++) v += (weights[relOffset + j] as number) * (relative[ro + j] as number);
    const ao = k * A;
    for (let j = 0; j < A; j++) v += (weights[relOffset + R + j] as number) * (absolute[ao + j] as number);
    out[k] = v;
  }
}

/**
 * Absolute-bump weights whose logits approximate `−decay · ln k` for k = 2..maxCount (least
 * squares over those counts; the bump at 1, if any, stays 0): a starting width prior under which
 * a launch of k sub-agents is about k^−decay as likely, so untrained launches are mostly narrow.
 * All zeros when `decay` is 0.
 */
export function decayWeights(tables: CountTables, decay: number): Float64Array {
  const { basis, absolute } = tables;
  const A = basis.absoluteCounts.length;
  const w = new Float64Array(A);
  if (decay === 0) return w;
  const cols: number[] = [];
  for (let j = 0; j < A; j++) if (basis.absoluteCounts[j] !== 1) cols.push(j);
  const n = cols.length;
  // Normal equations M w = v over k = 2..maxCount.
  const M: Float64Array[] = Array.from({ length: n }, () => new Float64Array(n + 1));
  for (let k = 2; k <= basis.maxCount; k++) {
    const target = -decay * Math.log(k);
    for (let a = 0; a < n; a++) {
      const ba = absolute[(k - 1) * A + (cols[a] as number)] as number;
      const row = M[a] as Float64Array;
      for (let b = 0; b < n; b++) row[b] = (row[b] as number) + ba * (absolute[(k - 1) * A + (cols[b] as number)] as number);
      row[n] = (row[n] as number) + ba * target;
    }
  }
  // Gauss–Jordan with partial pivoting (n is small).
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs((M[r] as Float64Array)[c] as number) > Math.abs((M[piv] as Float64Array)[c] as number)) piv = r;
    const tmp = M[c] as Float64Array;
    M[c] = M[piv] as Float64Array;
    M[piv] = tmp;
    const pr = M[c] as Float64Array;
    const d = pr[c] as number;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const rr = M[r] as Float64Array;
      const f = (rr[c] as number) / d;
      if (f !== 0) for (let q = c; q <= n; q++) rr[q] = (rr[q] as number) - f * (pr[q] as number);
    }
  }
  for (let a = 0; a < n; a++) w[cols[a] as number] = ((M[a] as Float64Array)[n] as number) / ((M[a] as Float64Array)[a] as number);
  return w;
}

/**
 * The weight of the absolute bump at `count` that makes the untrained head choose `count` with
 * probability `probability`, the other absolute weights being `others` (zeros when omitted; its
 * entry at `count` is ignored) and the relative ones 0, found by bisection.
 */
export function habitWeight(tables: CountTables, count: number, probability: number, others?: ArrayLike<number>): number {
  const { basis, absolute } = tables;
  const A = basis.absoluteCounts.length;
  const j = basis.absoluteCounts.indexOf(count);
  if (j < 0) return 0;
  const base = new Float64Array(basis.maxCount);
  if (others !== undefined) {
    for (let k = 0; k < basis.maxCount; k++) {
      let v = 0;
      for (let i = 0; i < A; i++) if (i !== j) v += (others[i] as number) * (absolute[k * A + i] as number);
      base[k] = v;
    }
  }
  const pAt = (w: number): number => {
    let total = 0;
    const c = base[count - 1] as number;
    for (let k = 0; k < basis.maxCount; k++) total += Math.exp(w * ((absolute[k * A + j] as number) - 1) + (base[k] as number) - c);
    return 1 / total;
  };
  let lo = -1e4;
  let hi = 1;
  while (pAt(hi) < probability && hi < 1e4) hi *= 2;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (pAt(mid) < probability) lo = mid;
    else hi = mid;
  }
  return hi;
}
