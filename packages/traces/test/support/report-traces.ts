/**
 * Traces for the report tests: the framework fixtures (made by the real libraries through the
 * fixture generator) read by `readTraces`, and any number of generated traces whose record and
 * finding come from the package's own `stagesOf` and `serialCollapseFinding` on a generated
 * mapping, so that record and finding always agree as they do for a real trace.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { criticalSteps } from '@parl/core';
import { serialCollapseFinding, stagesOf, type SubAgentRef, type TraceMapping, type TurnGroup } from '../../src/index.js';
import type { TraceReportEntry } from '../../src/report/trace-report.js';
import { collect } from './collect.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Every fixture trace (worked example and each framework's scenarios), read by `readTraces`. */
export async function fixtureTraces(): Promise<TraceReportEntry[]> {
  const files = [`${FIXTURES}worked-example.jsonl`];
  for (const framework of readdirSync(`${FIXTURES}frameworks`, { withFileTypes: true })) {
    if (!framework.isDirectory()) continue;
    for (const file of readdirSync(`${FIXTURES}frameworks/${framework.name}`)) if (file.endsWith('.jsonl')) files.push(`${FIXTURES}frameworks/${framework.name}/${file}`);
  }
  const entries: TraceReportEntry[] = [];
  for (const file of files) {
    const { results } = await collect([readFileSync(file, 'utf8')]);
    for (const r of results) entries.push({ record: r.record, finding: r.finding });
  }
  return entries;
}

/** A small deterministic generator (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shape limits of a generated trace. */
export interface TraceShape {
  /** Orchestrator turns. */
  readonly turns: number;
  /** Waves per turn at most. */
  readonly waves: number;
  /** Sub-agents per wave at most. */
  readonly width: number;
  /** Characters of each sub-agent name. */
  readonly nameChars: number;
  /** Share of sub-agents (above depth 2) that launch sub-agents of their own. */
  readonly nestedShare: number;
}

/** A generated mapping: turns of waves of sub-agents; below `depth` 2, some sub-agents launch sub-agents of their own (spec §5.2). */
function generatedMapping(id: string, random: () => number, shape: TraceShape, depth: number, clock: { ms: number }): TraceMapping {
  const pick = (n: number): number => 1 + Math.floor(random() * n);
  const turns: TurnGroup[] = [];
  const nested = new Map<string, TraceMapping>();
  const turnCount = depth === 0 ? shape.turns : pick(3);
  for (let t = 1; t <= turnCount; t++) {
    const waves: SubAgentRef[][] = [];
    const waveCount = random() < 0.3 ? 0 : pick(depth === 0 ? shape.waves : 2);
    // Waves one after another: each waits for the heaviest chain of those before it (spec §2).
    let heaviest = 0;
    for (let w = 0; w < waveCount; w++) {
      const wave: SubAgentRef[] = [];
      for (let k = 0, n = pick(depth === 0 ? shape.width : 3); k < n; k++) {
        const spanId = `${id}-${depth}-${t}-${w}-${k}`;
        let steps = pick(6);
        const name = `agent-${depth}-${t}-${w}-${k}-`.padEnd(shape.nameChars, 'x');
        const launches = depth < 2 && random() < shape.nestedShare;
        if (launches) {
          const inner = generatedMapping(spanId, random, shape, depth + 1, clock);
          nested.set(spanId, inner);
          // As the mapping does: a nested entry's steps are its own critical steps as run.
          steps = criticalSteps(stagesOf(inner, 'overlap')).critical_steps;
        }
        wave.push({ span_id: spanId, name, start_ms: clock.ms, end_ms: clock.ms + steps * 100, steps, finished: random() > 0.1, nested: launches, wait_steps: heaviest });
      }
      heaviest += Math.max(...wave.map((s) => s.steps));
      waves.push(wave);
      clock.ms += 1000;
    }
    turns.push({ turn: t, main_steps: 1, subs: waves.flat(), waves, own_tool_calls: waveCount === 0 && random() < 0.5 ? 1 : 0 });
  }
  return { orchestrator: id, turns, warnings: [], contents: new Map(), ownToolContents: new Map(), nested };
}

/** One generated trace: a mapping made up turn by turn, its record as run and its finding. */
export function generatedTrace(id: string, random: () => number, shape: TraceShape): TraceReportEntry {
  const mapping = generatedMapping(id, random, shape, 0, { ms: 1_750_000_000_000 });
  return { record: { id, stages: stagesOf(mapping, 'overlap') }, finding: serialCollapseFinding(id, mapping) };
}

/** A typical trace: a few turns, a few waves, a few sub-agents. */
export const TYPICAL: TraceShape = { turns: 6, waves: 3, width: 4, nameChars: 12, nestedShare: 0.08 };
/** The largest trace the report has to bound: many turns, waves and sub-agents, long names. */
export const WIDE_AND_LONG: TraceShape = { turns: 120, waves: 4, width: 40, nameChars: 200, nestedShare: 0.002 };
