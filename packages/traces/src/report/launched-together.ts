/**
 * The counterfactual schedule of a finding (spec §7): the as-run stages with the work of every
 * serial pattern not shown `dependent` launched together, as the finding computed its
 * `critical_steps_if_parallel`.
 *
 * @module
 */
import type { SerialCollapseFinding, SerialPattern } from '../finding.js';
import { drawnCriticalSteps, flatStages, type DrawnEntry, type DrawnStage } from './drawn-stages.js';

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

/** Where a nested entry is: stage and position at each level down. */
type EntryPath = readonly { readonly i: number; readonly j: number }[];

/** True when `stages` hold the pattern's groups where it says: as many sub-agents, with the same steps, order aside. */
function holdsPattern(stages: readonly DrawnStage[], pattern: SerialPattern): boolean {
  return pattern.stages.every((index, g) => {
    const group = pattern.groups[g] ?? [];
    const stage = stages[index];
    if (stage === undefined) return false;
    if (pattern.kind === 'one_per_turn' && group.length === 0) return stage.subs.length === 0;
    const want = group.filter((r) => !r.nested).map((r) => r.steps).sort((a, b) => a - b);
    const have = stage.subs.filter((e) => e.stages === undefined).map((e) => e.length).sort((a, b) => a - b);
    return stage.subs.length === group.length && want.length === have.length && want.every((v, k) => v === have[k]);
  });
}

/** Every path to a nested entry `within.length` levels down whose stages hold `pattern` (names checked where known). */
function pathsTo(stages: readonly DrawnStage[], within: readonly string[], pattern: SerialPattern): EntryPath[] {
  const [head, ...rest] = within;
  if (head === undefined) return holdsPattern(stages, pattern) ? [[]] : [];
  const found: EntryPath[] = [];
  stages.forEach((stage, i) =>
    stage.subs.forEach((entry, j) => {
      if (entry.stages === undefined || (entry.name !== undefined && entry.name !== head)) return;
      for (const below of pathsTo(entry.stages, rest, pattern)) found.push([{ i, j }, ...below]);
    }),
  );
  return found;
}

function stagesAt(stages: readonly DrawnStage[], path: EntryPath): readonly DrawnStage[] {
  return path.reduce((level, { i, j }) => level[i]?.subs[j]?.stages ?? [], stages);
}

/** `stages` with `pattern` launched together in the nested entry at `path` (each entry above re-measured by `@parl/core`). */
function launchTogetherAt(stages: readonly DrawnStage[], path: EntryPath, pattern: SerialPattern): DrawnStage[] {
  const copy = [...stages];
  const [step, ...rest] = path;
  if (step === undefined) {
    launchTogether(copy, pattern);
    return copy;
  }
  const stage = copy[step.i] ?? EMPTY;
  const entry = stage.subs[step.j] as DrawnEntry;
  const inner = launchTogetherAt(entry.stages ?? [], rest, pattern);
  copy[step.i] = { main: stage.main, subs: stage.subs.map((e, j) => (j === step.j ? { ...entry, stages: inner, length: drawnCriticalSteps(inner) } : e)) };
  return copy;
}

/**
 * Launch `pattern` together inside the nested sub-agent that `within` names (spec §5.2). The
 * record carries no names, so the entry is the one whose stages hold the pattern's groups (same
 * sizes and steps) under a path of nested entries as deep as `within`; several such entries are
 * accepted only when their stages are the same (either gives the same drawing). Undefined when no
 * entry, or several different ones, fit: the drawing then says so rather than guess.
 */
function launchTogetherWithin(stages: readonly DrawnStage[], pattern: SerialPattern): DrawnStage[] | undefined {
  const paths = pathsTo(stages, pattern.within, pattern);
  const first = paths[0];
  if (first === undefined) return undefined;
  const shape = JSON.stringify(flatStages(stagesAt(stages, first)));
  if (paths.some((p) => JSON.stringify(flatStages(stagesAt(stages, p))) !== shape)) return undefined;
  return launchTogetherAt(stages, first, pattern);
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
    const next = launchTogetherWithin(stages, pattern);
    if (next === undefined) return { why: `the nested sub-agent ${pattern.within.join(' › ')} of a pattern cannot be told apart from its siblings in the record` };
    stages = next;
  }
  const critical = drawnCriticalSteps(stages);
  if (!close(critical, finding.critical_steps_if_parallel)) {
    return { why: `launching the patterns together gives ${critical} critical steps, not the finding's ${finding.critical_steps_if_parallel}` };
  }
  return { stages };
}
