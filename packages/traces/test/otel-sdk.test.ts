import { describe, expect, it } from 'vitest';
import { entrySteps } from './support/entry-steps.js';
import { criticalSteps } from '@parl/core';
import { LLM_MS, otelAgentRun, subAgentMs, TOOL_MS, type ScriptedTurn } from './support/otel-agent-run.js';
import { chunked, collect } from './support/collect.js';

const researcher = { name: 'researcher', llmCalls: 2, toolCalls: 1 };
const coder = { name: 'coder', llmCalls: 3, toolCalls: 2 };
const tester = { name: 'tester', llmCalls: 1, toolCalls: 0 };
const reviewer = { name: 'reviewer', llmCalls: 2, toolCalls: 1, fails: true };

const script: ScriptedTurn[] = [
  { subAgents: [researcher, coder], launch: 'parallel' },
  { subAgents: [tester, reviewer], launch: 'serial' },
];

describe('OpenTelemetry JS SDK traces (OTLP JSON from the real serializer)', () => {
  const run = otelAgentRun(script);

  it('maps the orchestrator turns and their sub-agents into spec §5 stages (children grouping: launched together)', async () => {
    const { results } = await collect([run.json], { grouping: 'children' });
    expect(results).toHaveLength(1);
    const [r] = results;
    expect(r?.traceId).toBe(run.traceId);
    expect(r?.format).toBe('otlp');
    expect(r?.orchestrator).toBe('orchestrator');
    expect(r?.record).toEqual({
      id: run.traceId,
      stages: [
        { main_steps: 1, sub_steps: [{ steps: 2, finished: true }, { steps: 3, finished: true }] },
        { main_steps: 1, sub_steps: [{ steps: 1, finished: true }, { steps: 2, finished: false }] },
        { main_steps: 1, sub_steps: [] },
      ],
    });
  });

  it('reports the serial wave of turn 2 and the critical steps had it been launched together', async () => {
    const { results } = await collect([run.json]);
    const f = results[0]?.finding;
    expect(f?.serial_collapse).toBe(true);
    expect(f?.patterns.map((p) => ({ kind: p.kind, turns: p.turns, stages: p.stages, groups: p.groups.map((w) => w.map((s) => s.name)), independence: p.independence }))).toEqual([
      { kind: 'waves', turns: [2], stages: [1], groups: [['tester'], ['reviewer']], independence: 'unknown' },
    ]);
    // As run: (1+3) + (1 + max(1, 1+2)) + 1 = 9 (the reviewer waited for the tester's 1 step); together: (1+3) + (1+2) + 1 = 8.
    expect(f?.critical_steps_as_run).toBe(9);
    expect(f?.critical_steps_if_parallel).toBe(8);
    expect(f?.critical_steps_saved).toBe(1);
    expect(f?.patterns[0]?.critical_steps_saved).toBe(1);
  });

  it('gives a sub-agent that started after another of its turn ended its wait_steps by default (as run)', async () => {
    const { results } = await collect([run.json]);
    const stages = results[0]?.record.stages;
    expect(stages?.map((s) => [s.main_steps, s.sub_steps?.length])).toEqual([
      [1, 2],
      [1, 2],
      [1, 0],
    ]);
    expect(stages?.[1]?.sub_steps).toEqual([
      { steps: 1, finished: true },
      { steps: 2, finished: false, wait_steps: 1 },
    ]);
    expect(criticalSteps(stages ?? []).critical_steps).toBe(results[0]?.finding.critical_steps_as_run);
  });

  it('counts tool calls as steps with stepsFrom: tools', async () => {
    const { results } = await collect([run.json], { stepsFrom: 'tools' });
    const steps = results[0]?.record.stages?.map((s) => s.sub_steps?.map((e) => entrySteps(e)));
    expect(steps).toEqual([[1, 2], [0, 1], []]);
  });

  it('uses durations in seconds with clock: wall', async () => {
    const { results } = await collect([run.json], { clock: 'wall' });
    const stages = results[0]?.record.stages ?? [];
    expect(stages.map((s) => s.main_steps)).toEqual([LLM_MS / 1000, LLM_MS / 1000, LLM_MS / 1000]);
    // The reviewer waited the tester's duration, in seconds.
    expect((stages[1]?.sub_steps?.[1] as { wait_steps?: number }).wait_steps).toBe(entrySteps(stages[1]?.sub_steps?.[0] as never));
    const first = stages[0]?.sub_steps?.map((e) => entrySteps(e));
    expect(first).toEqual([(2 * LLM_MS) / 1000, (3 * LLM_MS) / 1000]);
    // The scripted durations are consistent with the clock the spans were stamped with.
    expect(subAgentMs(coder)).toBe(3 * LLM_MS + 2 * TOOL_MS);
  });

  it('reads the same trace from bytes split at arbitrary points and from a pretty-printed document', async () => {
    const bytes = new TextEncoder().encode(run.json);
    const parts = [bytes.slice(0, 7), bytes.slice(7, 1000), bytes.slice(1000)];
    const fromBytes = await collect(parts);
    const pretty = await collect(chunked(JSON.stringify(JSON.parse(run.json), null, 2), 97));
    const plain = await collect([run.json]);
    expect(fromBytes.results.map((r) => r.record)).toEqual(plain.results.map((r) => r.record));
    expect(pretty.results.map((r) => r.record)).toEqual(plain.results.map((r) => r.record));
  });

  it('reads a JSONL file of export requests from several interleaved runs, one record per trace', async () => {
    const a = otelAgentRun(script);
    const b = otelAgentRun([{ subAgents: [tester], launch: 'parallel' }]);
    // The OTLP file exporter writes one request per line; here b's request comes between two halves of a's.
    const aReq = JSON.parse(a.json) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
    const spansA = aReq.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const half = Math.floor(spansA.length / 2);
    const request = (spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
    const lines = [request(spansA.slice(0, half)), b.json, request(spansA.slice(half))].join('\n') + '\n';
    const { results } = await collect([lines]);
    expect(results.map((r) => r.traceId).sort()).toEqual([a.traceId, b.traceId].sort());
    const ra = results.find((r) => r.traceId === a.traceId);
    expect(ra?.record.stages?.length).toBe(3);
  });
});
