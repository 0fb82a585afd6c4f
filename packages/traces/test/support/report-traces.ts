/**
 * Traces for the report tests: the framework fixtures (made by the real libraries through the
 * fixture generator) read by `readTraces`, and any number of generated traces whose record and
 * finding come from the package's own `stagesOf` and `serialCollapseFinding` on a generated
 * mapping, so that record and finding always agree as they do for a real trace.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
}

/** One generated trace: a mapping made up turn by turn, its record as run and its finding. */
export function generatedTrace(id: string, random: () => number, shape: TraceShape): TraceReportEntry {
  const pick = (n: number): number => 1 + Math.floor(random() * n);
  const turns: TurnGroup[] = [];
  let clock = 1_750_000_000_000;
  for (let t = 1; t <= shape.turns; t++) {
    const waves: SubAgentRef[][] = [];
    const waveCount = random() < 0.3 ? 0 : pick(shape.waves);
    for (let w = 0; w < waveCount; w++) {
      const wave: SubAgentRef[] = [];
      for (let k = 0, n = pick(shape.width); k < n; k++) {
        const steps = pick(6);
        const name = `agent-${t}-${w}-${k}-`.padEnd(shape.nameChars, 'x');
        wave.push({ span_id: `${id}-${t}-${w}-${k}`, name, start_ms: clock, end_ms: clock + steps * 100, steps, finished: random() > 0.1, nested: false });
      }
      waves.push(wave);
      clock += 1000;
    }
    turns.push({ turn: t, main_steps: 1, waves, own_tool_calls: waveCount === 0 && random() < 0.5 ? 1 : 0 });
  }
  const mapping: TraceMapping = { orchestrator: 'orchestrator', turns, warnings: [], contents: new Map(), ownToolContents: new Map(), nested: new Map() };
  return { record: { id, stages: stagesOf(mapping, 'overlap') }, finding: serialCollapseFinding(id, mapping) };
}

/** A typical trace: a few turns, a few waves, a few sub-agents. */
export const TYPICAL: TraceShape = { turns: 6, waves: 3, width: 4, nameChars: 12 };
/** The largest trace the report has to bound: many turns, waves and sub-agents, long names. */
export const WIDE_AND_LONG: TraceShape = { turns: 120, waves: 4, width: 40, nameChars: 200 };
