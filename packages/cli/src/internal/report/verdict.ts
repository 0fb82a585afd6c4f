/**
 * The report's first line: what the run learned, in numbers, against which baselines — built only
 * from `summary.json`.
 *
 * @module
 */
import { speedupOverSerial, type RunSummary, type ScriptedBaselineResult } from '@parl/core';
import { formatNumber } from './format-number.js';

/** How the trained policy's latency-to-target curve compares with one baseline's. */
export type CurveComparison = 'identical' | 'dominates' | 'at-or-below' | 'mixed' | 'above';

/**
 * Compare the trained curve with a baseline's, target by target (null = never reached, worse than
 * any budget): `identical` when every point is equal, `dominates` when at or below everywhere and
 * strictly below somewhere, `above` when at or above everywhere and strictly above somewhere, else
 * `mixed`.
 */
export function compareCurves(trained: readonly (number | null)[], baseline: readonly (number | null)[]): CurveComparison {
  let below = 0;
  let above = 0;
  trained.forEach((t, i) => {
    const b = baseline[i] ?? null;
    const tv = t ?? Infinity;
    const bv = b ?? Infinity;
    if (tv < bv) below++;
    else if (tv > bv) above++;
  });
  if (below === 0 && above === 0) return 'identical';
  if (above === 0) return 'dominates';
  if (below === 0) return 'above';
  return 'mixed';
}

function describeBaseline(b: ScriptedBaselineResult, trained: readonly (number | null)[]): string {
  if (b.same_as_trained) return `identical to ${b.policy}`;
  const c = compareCurves(trained, b.latency);
  if (c === 'dominates') return `faster than ${b.policy} at every target reached`;
  if (c === 'identical') return `as fast as ${b.policy} at every target`;
  if (c === 'above') return `slower than ${b.policy}`;
  return `faster than ${b.policy} at some targets only`;
}

/**
 * One sentence: the speed-up over always-serial at which r_perf, how the latency curve compares
 * with every scripted baseline recorded, and the cost in sub-agents and work per episode.
 *
 * @example
 * ```ts
 * runVerdict(summary);
 * // "Learned: 2.41× fewer critical steps than always-serial (27.4 vs 66.1) at r_perf 0.909 (serial 0.890); ..."
 * ```
 */
export function runVerdict(s: RunSummary): string {
  const f = s.final;
  const serial = s.baseline_serial;
  // The speed-up over serial is core's (issue 31: PARL numbers only in core); none without critical steps to compare.
  const speedup = f.critical_steps > 0 && serial.critical_steps > 0 ? speedupOverSerial(serial.critical_steps, f.critical_steps) : null;
  const perf = f.r_perf >= serial.r_perf ? 'at or above' : 'below';
  const parts = [
    `Learned: ${speedup === null ? '—' : `${formatNumber(speedup, 3)}×`} fewer critical steps than always-serial (${formatNumber(f.critical_steps, 3)} vs ${formatNumber(serial.critical_steps, 3)}) at r_perf ${formatNumber(f.r_perf, 3)}, ${perf} serial's ${formatNumber(serial.r_perf, 3)}`,
  ];
  const trained = s.latency_to_target.map((r) => r.policy);
  if (s.baselines !== undefined && s.baselines.length > 0) {
    const others = s.baselines.filter((b) => b.policy !== 'serial');
    if (others.length > 0) parts.push(`latency to target: ${others.map((b) => describeBaseline(b, trained)).join(', ')}`);
  }
  if (f.subagents !== undefined && f.total_steps !== undefined) {
    parts.push(`cost: ${formatNumber(f.subagents, 3)} sub-agents and ${formatNumber(f.total_steps, 3)} total steps per episode (serial ${serial.total_steps === undefined ? '—' : formatNumber(serial.total_steps, 3)})`);
  }
  return `${parts.join('; ')}.`;
}
