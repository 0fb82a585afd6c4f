/**
 * The geometry of one timeline: rows (the orchestrator, one lane per sub-agent position, nested
 * lanes under a §5.2 nested sub-agent) and bars placed in critical steps, with the critical path
 * marked. Stage lengths come from `@parl/core`; this file only places what core measured.
 *
 * @module
 */
import { drawnCriticalSteps, type DrawnEntry, type DrawnStage } from './drawn-stages.js';

/** Rows drawn per timeline at most; the rest are counted in {@link TimelineLayout.hiddenRows}. */
export const MAX_TIMELINE_ROWS = 24;
/** Bars drawn per timeline at most (in stage order); the rest are counted in {@link TimelineLayout.hiddenBars}. */
export const MAX_TIMELINE_BARS = 150;

/** What a bar stands for. */
export type BarKind = 'main' | 'sub' | 'nested' | 'own';

/** One bar of a timeline. */
export interface TimelineBar {
  /** Its row (0 = the orchestrator). */
  readonly row: number;
  /** Where it starts, in critical steps from the start of the trace. */
  readonly start: number;
  /** Its length in critical steps. */
  readonly length: number;
  /** `main`: own steps of the orchestrator (or of a nested sub-agent); `sub`: a sub-agent; `nested`: the whole span of a nested sub-agent; `own`: a turn's own work launched as a sub-agent. */
  readonly kind: BarKind;
  /** On the critical path. */
  readonly critical: boolean;
  /** False for a sub-agent that did not finish. */
  readonly finished: boolean;
  /** The top-level stage (0-based) it belongs to. */
  readonly stage: number;
  /** Its agent name, where known. */
  readonly name?: string;
  /** Its wall-clock duration in ms, where known. */
  readonly wallMs?: number;
  /** Its row's label (who it is). */
  readonly who: string;
}

/** One row of a timeline. */
export interface TimelineRow {
  /** Short label: `orchestrator`, `sub-agent 2`, `2.1` for a nested lane. */
  readonly label: string;
  /** Nesting depth (0 for the orchestrator and its sub-agents). */
  readonly depth: number;
}

/** A laid-out timeline. */
export interface TimelineLayout {
  /** The rows drawn (at most {@link MAX_TIMELINE_ROWS}). */
  readonly rows: readonly TimelineRow[];
  /** The bars drawn (at most {@link MAX_TIMELINE_BARS}), in stage order. */
  readonly bars: readonly TimelineBar[];
  /** Critical steps of the whole timeline (by `@parl/core`). */
  readonly total: number;
  /** Start of each top-level stage, and its end, in critical steps. */
  readonly stageSpans: readonly { readonly start: number; readonly end: number }[];
  /** Rows not drawn. */
  readonly hiddenRows: number;
  /** Bars not drawn (on hidden rows or beyond the bar limit). */
  readonly hiddenBars: number;
}

/** Rows a level's lanes take: lane j takes one row plus the rows of its tallest nested entry. */
/** Where a sub-agent's bar ends in its stage: a sub-agent that waited (spec §2 `wait_steps`) starts that far in. */
function reach(e: DrawnEntry): number {
  return (e.wait ?? 0) + e.length;
}

/**
 * The sub-agents of a stage on its critical path: the first of those that reach furthest, and, when
 * it waited, the chain it waited for — an entry whose reach is that wait (as run, `wait_steps` is
 * the heaviest chain of the sub-agents that ended before it started), and so on back. A wait that no
 * entry accounts for (a record written by hand) stays a gap.
 */
function criticalChain(subs: readonly DrawnEntry[]): Set<number> {
  const chain = new Set<number>();
  const longest = Math.max(0, ...subs.map(reach));
  if (longest === 0) return chain;
  let at = subs.findIndex((e) => reach(e) === longest);
  while (at >= 0 && !chain.has(at)) {
    chain.add(at);
    const wait = (subs[at] as DrawnEntry).wait ?? 0;
    if (wait <= 0) break;
    at = subs.findIndex((e, j) => !chain.has(j) && Math.abs(reach(e) - wait) <= 1e-9 * Math.max(1, wait));
  }
  return chain;
}

function laneHeights(stages: readonly DrawnStage[]): number[] {
  const heights: number[] = [];
  for (const stage of stages) {
    stage.subs.forEach((e, j) => {
      const h = 1 + (e.stages === undefined ? 0 : rowsOf(e.stages));
      if ((heights[j] ?? 0) < h) heights[j] = h;
    });
  }
  return heights;
}

function rowsOf(stages: readonly DrawnStage[]): number {
  return laneHeights(stages).reduce((a, b) => a + b, 0);
}

class Placer {
  readonly rows: TimelineRow[] = [{ label: 'orchestrator', depth: 0 }];
  readonly bars: TimelineBar[] = [];
  hiddenBars = 0;

  add(bar: TimelineBar): void {
    if (bar.row >= MAX_TIMELINE_ROWS || this.bars.length >= MAX_TIMELINE_BARS) this.hiddenBars++;
    else this.bars.push(bar);
  }

  label(row: number, value: TimelineRow): void {
    while (this.rows.length <= row) this.rows.push({ label: '', depth: 0 });
    this.rows[row] = value;
  }

  /** Place `stages` from `t0`; own steps on `mainRow`, lanes from `laneBase`. Returns where they end. */
  place(stages: readonly DrawnStage[], t0: number, mainRow: number, laneBase: number, prefix: string, depth: number, onPath: boolean, top: number | undefined, who: string, spans?: { start: number; end: number }[]): number {
    const heights = laneHeights(stages);
    const laneRows: number[] = [];
    let next = laneBase;
    heights.forEach((h, j) => {
      laneRows.push(next);
      this.label(next, { label: depth === 0 ? `sub-agent ${j + 1}` : `${prefix}${j + 1}`, depth });
      next += h;
    });
    let t = t0;
    stages.forEach((stage, i) => {
      const stageIndex = top ?? i;
      if (stage.main > 0) this.add({ row: mainRow, start: t, length: stage.main, kind: 'main', critical: onPath, finished: true, stage: stageIndex, who });
      const subStart = t + stage.main;
      const onChain = onPath ? criticalChain(stage.subs) : new Set<number>();
      stage.subs.forEach((e: DrawnEntry, j) => {
        const row = laneRows[j] as number;
        const subWho = depth === 0 ? `sub-agent ${j + 1}` : `sub-agent ${prefix}${j + 1}`;
        const named = { ...(e.name === undefined ? {} : { name: e.name }), ...(e.wallMs === undefined ? {} : { wallMs: e.wallMs }) };
        const kind: BarKind = e.stages !== undefined ? 'nested' : e.ownWork === true ? 'own' : 'sub';
        const from = subStart + (e.wait ?? 0);
        this.add({ row, start: from, length: e.length, kind, critical: onChain.has(j), finished: e.finished, stage: stageIndex, who: subWho, ...named });
        if (e.stages !== undefined) this.place(e.stages, from, row, row + 1, `${prefix}${j + 1}.`, depth + 1, onChain.has(j), stageIndex, subWho);
      });
      const end = t + drawnCriticalSteps([stage]);
      spans?.push({ start: t, end });
      t = end;
    });
    return t;
  }
}

/**
 * Lay out stages on a timeline in critical steps: each stage starts where the one before ended
 * (its length is `@parl/core`'s critical steps of the stage), the orchestrator's own steps first,
 * then its sub-agents side by side in lanes. The critical path is the orchestrator's steps and, in
 * each stage, the first of its longest sub-agents (inside a nested sub-agent, its own path).
 */
export function layoutTimeline(stages: readonly DrawnStage[]): TimelineLayout {
  const placer = new Placer();
  const spans: { start: number; end: number }[] = [];
  placer.place(stages, 0, 0, 1, '', 0, true, undefined, 'orchestrator', spans);
  const totalRows = 1 + rowsOf(stages);
  const drawnRows = Math.min(totalRows, MAX_TIMELINE_ROWS);
  return {
    rows: placer.rows.slice(0, drawnRows),
    bars: placer.bars,
    total: drawnCriticalSteps(stages),
    stageSpans: spans,
    hiddenRows: totalRows - drawnRows,
    hiddenBars: placer.hiddenBars,
  };
}
