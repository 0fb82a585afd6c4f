/**
 * A spec §5 record's stages read for drawing: every sub-agent entry (a number, `{steps}` or a
 * §5.2 nested `{stages}`) with the length it adds to its stage, taken from `@parl/core`'s
 * `criticalSteps` (a nested entry's own critical steps), and the names and wall-clock durations
 * the finding's patterns know for it.
 *
 * @module
 */
import { criticalSteps, parallelismOf, ParlInputError, type StageRecord } from '@parl/core';
import type { SerialCollapseFinding } from '../../finding.js';

/** Nesting deeper than this is an input error (spec §5.2). */
const MAX_NESTING = 16;

/** One sub-agent entry as drawn. */
export interface DrawnEntry {
  /** What it adds to its stage: its steps, or for a nested entry its own critical steps (by `@parl/core`). */
  readonly length: number;
  /** Its work: its steps, or for a nested entry its own total steps (by `@parl/core`). */
  readonly work: number;
  /** Steps of its stage that elapsed before it started (spec §2 `wait_steps`); 0 or absent when it started with its group. */
  readonly wait?: number;
  /** False when the record says it did not finish. */
  readonly finished: boolean;
  /** Its agent name, where the finding names it. */
  readonly name?: string;
  /** Its wall-clock duration in ms, where the finding has its span times. */
  readonly wallMs?: number;
  /** A §5.2 nested sub-agent's own stages. */
  readonly stages?: readonly DrawnStage[];
  /** True for a turn's own work that the launched-together schedule turned into a sub-agent. */
  readonly ownWork?: boolean;
}

/** One stage as drawn. */
export interface DrawnStage {
  /** The orchestrator's (or nested sub-agent's) own steps. */
  readonly main: number;
  /** The sub-agents launched in it. */
  readonly subs: readonly DrawnEntry[];
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The stages as `@parl/core` reads them, nested entries replaced by their lengths, waits kept. */
export function flatStages(stages: readonly DrawnStage[]): StageRecord[] {
  return stages.map((s) => ({ main_steps: s.main, sub_steps: s.subs.map((e) => (e.wait === undefined || e.wait === 0 ? e.length : { steps: e.length, wait_steps: e.wait })) }));
}

/** Critical steps of drawn stages, by `@parl/core`. */
export function drawnCriticalSteps(stages: readonly DrawnStage[]): number {
  return criticalSteps(flatStages(stages)).critical_steps;
}

/**
 * Critical steps, total steps (work) and parallelism of drawn stages, by `@parl/core`: a nested
 * entry adds its own critical steps to its stage's length and its own total steps to the work
 * (spec §5.2).
 */
export function measureStages(stages: readonly DrawnStage[]): { readonly critical: number; readonly work: number; readonly parallelism: number } {
  const critical = criticalSteps(flatStages(stages)).critical_steps;
  const work = criticalSteps(stages.map((s) => ({ main_steps: s.main, sub_steps: s.subs.map((e) => e.work) }))).total_steps;
  return { critical, work, parallelism: parallelismOf(work, critical) };
}

function readEntry(entry: unknown, path: string, depth: number, location: string): DrawnEntry {
  if (typeof entry === 'number') return { length: entry, work: entry, finished: true };
  if (!isObject(entry)) throw new ParlInputError(path, entry, 'a number of steps, {steps, finished} or a nested {stages, finished} (spec §5.2)', location);
  const finished = entry['finished'] === undefined ? true : entry['finished'];
  if (typeof finished !== 'boolean') throw new ParlInputError(`${path}.finished`, finished, 'a boolean', location);
  const waitValue = entry['wait_steps'];
  if (waitValue !== undefined && typeof waitValue !== 'number') throw new ParlInputError(`${path}.wait_steps`, waitValue, 'a finite number ≥ 0', location);
  const wait = waitValue === undefined || waitValue === 0 ? {} : { wait: waitValue };
  if (entry['stages'] !== undefined) {
    if (entry['steps'] !== undefined) throw new ParlInputError(path, entry, 'either steps or stages, not both (spec §5.2)', location);
    if (depth >= MAX_NESTING) throw new ParlInputError(`${path}.stages`, `nesting depth ${depth + 1}`, `nesting at most ${MAX_NESTING} levels deep (spec §5.2)`, location);
    const stages = readStages(entry['stages'], `${path}.stages`, depth + 1, location);
    const measured = measureStages(stages);
    return { length: measured.critical, work: measured.work, finished, stages, ...wait };
  }
  const steps = entry['steps'];
  if (typeof steps !== 'number') throw new ParlInputError(`${path}.steps`, steps, 'a finite number ≥ 0', location);
  return { length: steps, work: steps, finished, ...wait };
}

function readStages(stages: unknown, path: string, depth: number, location: string): DrawnStage[] {
  if (!Array.isArray(stages)) throw new ParlInputError(path, stages, 'an array of stages', location);
  const drawn = stages.map((stage: unknown, i): DrawnStage => {
    const at = `${path}[${i}]`;
    if (!isObject(stage)) throw new ParlInputError(at, stage, 'a stage object {main_steps, sub_steps}', location);
    const main = stage['main_steps'];
    if (typeof main !== 'number') throw new ParlInputError(`${at}.main_steps`, main, 'a finite number ≥ 0', location);
    const subs = stage['sub_steps'] ?? [];
    if (!Array.isArray(subs)) throw new ParlInputError(`${at}.sub_steps`, subs, 'an array of sub-agent entries', location);
    return { main, subs: subs.map((e: unknown, j) => readEntry(e, `${at}.sub_steps[${j}]`, depth, location)) };
  });
  // Numbers are checked (finite, ≥ 0) by core, with its own message.
  try {
    criticalSteps(flatStages(drawn));
  } catch (err) {
    if (err instanceof ParlInputError) throw new ParlInputError(err.field.startsWith('stages') ? `${path}${err.field.slice('stages'.length)}` : `${path}.${err.field}`, err.value, err.expected, location);
    throw err;
  }
  return drawn;
}

/** The names and wall-clock durations the finding's patterns give, by as-run stage index. */
function namesByStage(finding: SerialCollapseFinding | undefined): Map<number, readonly { name: string; wallMs: number }[]> {
  const byStage = new Map<number, readonly { name: string; wallMs: number }[]>();
  for (const pattern of finding?.patterns ?? []) {
    // A pattern inside a nested sub-agent counts its own stages (spec §5.2): not the top level's.
    if (pattern.within.length > 0) continue;
    if (pattern.kind === 'waves') {
      // One stage, its entries the rounds one after another.
      const stage = pattern.stages[0];
      if (stage !== undefined) byStage.set(stage, pattern.groups.flat().map((g) => ({ name: g.name, wallMs: g.end_ms - g.start_ms })));
      continue;
    }
    pattern.stages.forEach((stage, i) => {
      const group = pattern.groups[i] ?? [];
      if (group.length > 0) byStage.set(stage, group.map((g) => ({ name: g.name, wallMs: g.end_ms - g.start_ms })));
    });
  }
  return byStage;
}

/**
 * The top-level stages of a record, read for drawing, with names from the finding where its
 * pattern groups match a stage's sub-agents one for one.
 *
 * @throws `ParlInputError` naming the field for stages that are not spec §5 stages
 */
export function readDrawnStages(record: Readonly<Record<string, unknown>>, finding: SerialCollapseFinding | undefined, location: string): DrawnStage[] | undefined {
  if (record['stages'] === undefined) return undefined;
  const stages = readStages(record['stages'], 'stages', 0, location);
  const names = namesByStage(finding);
  return stages.map((stage, i) => {
    const known = names.get(i);
    if (known === undefined || known.length !== stage.subs.length) return stage;
    return { main: stage.main, subs: stage.subs.map((e, j) => ({ ...e, name: (known[j] as { name: string }).name, wallMs: (known[j] as { wallMs: number }).wallMs })) };
  });
}
