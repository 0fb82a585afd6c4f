/**
 * The counterfactual schedule of a finding (spec §7): the as-run stages with the work of every
 * serial pattern not shown `dependent` launched together, as the finding computed its
 * `critical_steps_if_parallel`.
 *
 * @module
 */
import type { SerialCollapseFinding, SerialPattern } from '../../finding.js';
import { drawnCriticalSteps, type DrawnEntry, type DrawnStage } from './drawn-stages.js';

const EMPTY: DrawnStage = { main: 0, subs: [] };

function launchTogether(stages: DrawnStage[], pattern: SerialPattern): void {
  const first = pattern.stages[0];
  if (first === undefined) return;
  const head = stages[first] ?? EMPTY;
  let group: DrawnEntry[];
  if (pattern.kind === 'waves') {
    // The turn's sub-agents all launched at once: nobody waits.
    group = pattern.stages.flatMap((i) => stages[i]?.subs ?? []).map(({ wait: _wait, ...e }) => e);
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
 * `stages` with `pattern` launched together inside the nested sub-agent that `within` leads to
 * (spec §5.2: each step the stage and entry of the as-run stages of the agent above), each entry
 * on the way re-measured by `@parl/core`. Undefined when the record has no nested entry there.
 */
function launchTogetherWithin(stages: readonly DrawnStage[], within: SerialPattern['within'], pattern: SerialPattern): DrawnStage[] | undefined {
  const copy = [...stages];
  const [step, ...rest] = within;
  if (step === undefined) {
    launchTogether(copy, pattern);
    return copy;
  }
  const stage = copy[step.stage];
  const entry = stage?.subs[step.entry];
  if (stage === undefined || entry?.stages === undefined) return undefined;
  const inner = launchTogetherWithin(entry.stages, rest, pattern);
  if (inner === undefined) return undefined;
  copy[step.stage] = { main: stage.main, subs: stage.subs.map((e, j) => (j === step.entry ? { ...entry, stages: inner, length: drawnCriticalSteps(inner) } : e)) };
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
  let stages: DrawnStage[] = [...asRun];
  // Deepest first, as the finding does: a nested agent's own patterns shorten it before its parent's patterns move it.
  const chosen = finding.patterns.filter((p) => p.independence !== 'dependent').sort((a, b) => b.within.length - a.within.length);
  for (const pattern of chosen) {
    if (pattern.within.length === 0) {
      launchTogether(stages, pattern);
      continue;
    }
    const next = launchTogetherWithin(stages, pattern.within, pattern);
    if (next === undefined) return { why: `the record has no nested sub-agent where a pattern inside ${pattern.within.map((w) => w.name).join(' › ')} says` };
    stages = next;
  }
  const critical = drawnCriticalSteps(stages);
  if (!close(critical, finding.critical_steps_if_parallel)) {
    return { why: `launching the patterns together gives ${critical} critical steps, not the finding's ${finding.critical_steps_if_parallel}` };
  }
  return { stages };
}
