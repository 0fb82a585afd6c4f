/**
 * The id of a training run: a hash of its resolved config, so the same config always lands in the
 * same `runs/<run id>/` folder of a sweep (spec §9), on any machine.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { TrainingConfig } from '../../training/training-config.js';

/** JSON with every object's keys sorted, so that key order never changes a hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Hex digits of a run id (64 bits of SHA-256: a collision among a million runs has odds of about 3·10⁻⁸). */
export const RUN_ID_LENGTH = 16;

/**
 * The run id of a resolved training config: the first {@link RUN_ID_LENGTH} hex digits of the
 * SHA-256 of its canonical JSON. Seed, steps, preset name and every setting count.
 *
 * @example
 * ```ts
 * runIdOf(resolveTrainingConfig({ seed: 2 }, getPreset('parl'))); // e.g. '3f1c…', the same every time
 * ```
 */
export function runIdOf(config: TrainingConfig): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, RUN_ID_LENGTH);
}
