import { describe, expect, it } from 'vitest';
import { idsOfDottedOrder } from '../src/index.js';
import { collect, collectError } from './support/collect.js';

const TRACE = '1b64098b-4ab7-43f6-afee-992304f198d8';

/** LangSmith times: ISO without a zone (UTC), microseconds. */
function at(ms: number): string {
  return new Date(Date.UTC(2025, 0, 1, 12) + ms).toISOString().replace('Z', '123');
}
function dotted(...path: [number, string][]): string {
  return path.map(([ms, id]) => `${at(ms).replace(/[-:]/g, '').replace('.', '').slice(0, 18)}Z${id}`).join('.');
}

interface Run {
  id: string;
  name: string;
  run_type: string;
  start: number;
  end: number;
  parent?: string;
  error?: string;
}
// A supervisor (root chain) with two LLM turns; in turn 1 it calls two agents-as-tools at once.
const runs: Run[] = [
  { id: TRACE, name: 'supervisor', run_type: 'chain', start: 0, end: 5000 },
  { id: 'llm-1', name: 'ChatOpenAI', run_type: 'llm', start: 0, end: 1000, parent: TRACE },
  { id: 'tool-a', name: 'ask_researcher', run_type: 'tool', start: 1000, end: 3000, parent: TRACE },
  { id: 'agent-a', name: 'researcher', run_type: 'chain', start: 1000, end: 3000, parent: 'tool-a' },
  { id: 'a-llm-1', name: 'ChatOpenAI', run_type: 'llm', start: 1000, end: 2000, parent: 'agent-a' },
  { id: 'a-llm-2', name: 'ChatOpenAI', run_type: 'llm', start: 2000, end: 3000, parent: 'agent-a' },
  { id: 'tool-b', name: 'ask_writer', run_type: 'tool', start: 1000, end: 2000, parent: TRACE },
  { id: 'agent-b', name: 'writer', run_type: 'chain', start: 1000, end: 2000, parent: 'tool-b', error: 'RateLimitError' },
  { id: 'b-llm-1', name: 'ChatOpenAI', run_type: 'llm', start: 1000, end: 2000, parent: 'agent-b' },
  { id: 'llm-2', name: 'ChatOpenAI', run_type: 'llm', start: 3000, end: 4000, parent: TRACE },
];
const byId = new Map(runs.map((r) => [r.id, r]));
function pathOf(r: Run): [number, string][] {
  const up = r.parent === undefined ? [] : pathOf(byId.get(r.parent) as Run);
  return [...up, [r.start, r.id]];
}

// Both agents started at 1000 ms: the one that ended first comes first (records never depend on
// the order the runs arrive in).
const expected = [
  { main_steps: 1, sub_steps: [{ steps: 1, finished: false }, { steps: 2, finished: true }] },
  { main_steps: 1, sub_steps: [] },
];

describe('LangSmith runs', () => {
  it('reads runs linked by parent_run_id; the root chain is the orchestrator, chains under tools are sub-agents', async () => {
    const lines = runs.map((r) =>
      JSON.stringify({ id: r.id, name: r.name, run_type: r.run_type, trace_id: TRACE, parent_run_id: r.parent ?? null, start_time: at(r.start), end_time: at(r.end), error: r.error ?? null, status: r.error === undefined ? 'success' : 'error' }),
    );
    // Start-ordered export (root first): complete at end of input.
    const { results } = await collect([lines.join('\n')]);
    expect(results).toHaveLength(1);
    expect(results[0]?.format).toBe('langsmith');
    expect(results[0]?.orchestrator).toBe('supervisor');
    expect(results[0]?.record).toEqual({ id: TRACE, stages: expected });
  });

  it('reads runs linked only by dotted_order (no parent_run_id, no trace_id)', async () => {
    const array = runs.map((r) => ({ id: r.id, name: r.name, run_type: r.run_type, dotted_order: dotted(...pathOf(r)), start_time: at(r.start), end_time: at(r.end), error: r.error }));
    const { results } = await collect([JSON.stringify(array, null, 2)]);
    expect(results[0]?.traceId).toBe(TRACE);
    expect(results[0]?.record.stages).toEqual(expected);
    // The same runs as a {"runs": […]} list: one line (JSONL) or a pretty-printed document.
    for (const text of [JSON.stringify({ runs: array }), JSON.stringify({ runs: array }, null, 2)]) {
      const listed = await collect([text], { format: 'langsmith' });
      expect(listed.results.map((r) => r.record)).toEqual(results.map((r) => r.record));
    }
  });

  it('reads a nested run tree (child_runs)', async () => {
    const nest = (r: Run): Record<string, unknown> => ({
      id: r.id,
      name: r.name,
      run_type: r.run_type,
      start_time: Date.UTC(2025, 0, 1, 12) + r.start,
      end_time: Date.UTC(2025, 0, 1, 12) + r.end,
      error: r.error,
      child_runs: runs.filter((c) => c.parent === r.id).map(nest),
    });
    const { results } = await collect([JSON.stringify(nest(runs[0] as Run))]);
    expect(results[0]?.record.stages).toEqual(expected);
  });

  it('splits dotted orders into run ids and rejects one that does not end in the run', async () => {
    expect(idsOfDottedOrder('20230914T223155647Z1b64098b.20230914T223155649Z809ed3a2')).toEqual(['1b64098b', '809ed3a2']);
    expect(idsOfDottedOrder('not-a-dotted-order')).toBeUndefined();
    const bad = JSON.stringify({ id: 'x', run_type: 'llm', dotted_order: '20230914T223155647Zother', start_time: at(0), end_time: at(1) });
    expect((await collectError([bad])).message).toBe(
      'line 1: run x.dotted_order must be a dotted order ending in the run\'s own id x, got "20230914T223155647Zother"',
    );
  });
});
