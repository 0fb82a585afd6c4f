/**
 * The counterfactual schedule of a finding (spec §7): the as-run stages with the work of every
 * serial pattern not shown `dependent` launched together, as the finding computed its
 * `critical_steps_if_parallel`.
 *
 * @module
 */
import type { NestedEntryRef, SerialCollapseFinding, SerialPattern } from '../finding.js';
import { drawnCriticalSteps, measureStages, type DrawnEntry, type DrawnStage } from './drawn-stages.js';

const EMPTY: DrawnStage = { main: 0, subs: [] };

function launchTogether(stages: DrawnStage[], pattern: SerialPattern): void {
  const first = pattern.stages[0];
  if (first === undefined) return;
  const head = stages[first] ?? EMPTY;
  let group: DrawnEntry[];
  if (pattern.kind === 'waves') {
    group = pattern.stages.flatMap((i) => stages[i]?.subs ?? []);
  } else {
    // A turn that did the work itself becomes a sub-agent of its own main steps.
    group = pattern.stages.flatMap((i) => {
      const stage = stages[i] ?? EMPTY;
      return stage.subs.length > 0 ? stage.subs : [{ length: stage.main, work: stage.main, finished: true, ownWork: true }];
    });
  }
  stages[first] = { main: head.main, subs: group };
  for (const i of pattern.stages.slice(1)) stages[i] = EMPTY;
}

/**
 * `stages` with `pattern` launched together where it happened: in these stages, or (spec §5.2)
 * inside the nested entry its `within` leads to, whose length and work are measured again.
 */
function launchedAt(stages: readonly DrawnStage[], pattern: SerialPattern, path: readonly NestedEntryRef[]): DrawnStage[] {
  const copy = [...stages];
  const [ref, ...rest] = path;
  if (ref === undefined) {
    launchTogether(copy, pattern);
    return copy;
  }
  const stage = copy[ref.stage];
  const entry = stage?.subs[ref.entry];
  // Not where the finding says: left as it is, and the check below gives the reason.
  if (stage === undefined || entry?.stages === undefined) return copy;
  const inner = launchedAt(entry.stages, pattern, rest);
  const measured = measureStages(inner);
  const subs = [...stage.subs];
  subs[ref.entry] = { ...entry, stages: inner, length: measured.critical, work: measured.work };
  copy[ref.stage] = { ...stage, subs };
  return copy;
}

/** Why no launched-together schedule is drawn, or the schedule. */
export type LaunchedTogether = { readonly stages: readonly DrawnStage[]; readonly why?: undefined } | { readonly stages?: undefined; readonly why: string };

/**
 * The stages had every pattern of `finding` not shown `dependent` been launched together. The
 * schedule is drawn only when its critical steps (by `@parl/core`) are the finding's
 * `critical_steps_if_parallel`, and the as-run stages' are its `critical_steps_as_run`: a record
 * that is not the finding's as-run record (e.g. written with `--grouping children`) gets a reason
 * instead of a wrong drawing.
 */
export function launchedTogether(asRun: readonly DrawnStage[], finding: SerialCollapseFinding): LaunchedTogether {
  const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (!close(drawnCriticalSteps(asRun), finding.critical_steps_as_run)) {
    return { why: `the record's critical steps (${drawnCriticalSteps(asRun)}) are not the finding's as run (${finding.critical_steps_as_run}): it is not the as-run record` };
  }
  // As the finding computes it: patterns inside nested sub-agents (spec §5.2) first, deepest
  // first, then those of the orchestrator's own turns (which may move the nested entries).
  const chosen = finding.patterns.filter((p) => p.independence !== 'dependent');
  const order = [...chosen].sort((a, b) => b.within.length - a.within.length);
  let stages: DrawnStage[] = [...asRun];
  for (const pattern of order) stages = launchedAt(stages, pattern, pattern.within);
  const critical = drawnCriticalSteps(stages);
  if (!close(critical, finding.critical_steps_if_parallel)) {
    return { why: `launching the patterns together gives ${critical} critical steps, not the finding's ${finding.critical_steps_if_parallel}` };
  }
  return { stages };
}
