/**
 * Traces written by the real `langsmith` SDK (0.12.0) for LangGraph (test/fixtures/frameworks,
 * see its README): the runs as stored (`langsmith/`), the run operations as the SDK posted them
 * (`langsmith-ingest/`: creates and their later updates), and what the SDK's OpenTelemetry mode
 * exports (`langsmith-otel/`: nothing of LangGraph's runs; agents made of `traceable` functions
 * span by span). The scenario counts of `langsmith/` and `langsmith-ingest/` are
 * checked with every framework in frameworks.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { criticalSteps, subagentCounts } from '@parl/core';
import { decodeOtlpProtobuf, type TraceResult } from '../src/index.js';
import { LangSmithRunOperations } from '../src/formats/langsmith-operations.js';
import { collect, collectError } from './support/collect.js';
import { otlpLine } from './support/hand-spans.js';

const root = fileURLToPath(new URL('./fixtures/frameworks/', import.meta.url));
const SCENARIOS = ['parallel-swarm', 'serial-collapse', 'dependent-pipeline', 'failing-subagent', 'nested-subagents'];

type Run = Record<string, unknown> & { id: string };
function runsOf(folder: string, scenario: string): Run[] {
  return readFileSync(`${root}${folder}/${scenario}.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Run);
}

describe('LangSmith runs posted by the langsmith SDK', () => {
  it.each(SCENARIOS)('%s: posted by langsmith-js 0.12.0 from LangGraph, one run per id', (scenario) => {
    const runs = runsOf('langsmith', scenario);
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    for (const r of runs) {
      expect((r['extra'] as { runtime: Record<string, string> }).runtime).toMatchObject({ sdk: 'langsmith-js', sdk_version: '0.12.0', library: 'langchain-js' });
      expect(r['end_time']).toBeDefined();
    }
    expect(runs.filter((r) => r['run_type'] === 'llm').every((r) => r['name'] === 'ScriptedChatModel')).toBe(true);
  });

  it.each(SCENARIOS)('%s: the operations as posted hold runs twice (create without end_time, then its update) and read as the merged runs do', async (scenario) => {
    const ops = runsOf('langsmith-ingest', scenario);
    const first = new Map<string, Run>();
    let updates = 0;
    for (const op of ops) {
      const created = first.get(op.id);
      if (created === undefined) first.set(op.id, op);
      else {
        updates++;
        expect(created['end_time']).toBeUndefined();
        expect(op['end_time']).toBeDefined();
      }
    }
    expect(updates).toBeGreaterThan(0);
    const read = async (folder: string): Promise<TraceResult> => {
      const { results, warnings } = await collect([readFileSync(`${root}${folder}/${scenario}.jsonl`, 'utf8')], { strict: true });
      expect(warnings).toEqual([]);
      expect(results).toHaveLength(1);
      return results[0] as TraceResult;
    };
    const ingest = await read('langsmith-ingest');
    const stored = await read('langsmith');
    expect(ingest.record.stages).toEqual(stored.record.stages);
    const { trace_id: _a, ...ingestFinding } = ingest.finding as unknown as Record<string, unknown>;
    const { trace_id: _b, ...storedFinding } = stored.finding as unknown as Record<string, unknown>;
    expect(ingestFinding).toEqual(storedFinding);
  });

  it('the same operations with every create dropped still read (each update carries the whole run); with every update dropped, the first open run is named', async () => {
    const ops = runsOf('langsmith-ingest', 'serial-collapse');
    const updatesOnly = ops.filter((op) => op['end_time'] !== undefined);
    expect(updatesOnly.length).toBe(new Set(ops.map((op) => op.id)).size);
    const { results } = await collect([updatesOnly.map((op) => JSON.stringify(op)).join('\n')], { strict: true });
    expect(results[0]?.finding.serial_collapse).toBe(true);

    const createsOnly = ops.filter((op, i) => ops.findIndex((o) => o.id === op.id) === i);
    const open = createsOnly.find((op) => op['end_time'] === undefined) as Run;
    const line = createsOnly.indexOf(open) + 1;
    const err = await collectError([createsOnly.map((op) => JSON.stringify(op)).join('\n')]);
    expect(err.message).toContain(`line ${line}: run ${open.id}`);
    expect(err.message).toContain('end_time must be a timestamp (the span never ended: the trace is incomplete)');
  });
});

/**
 * What each scripted run did: model calls in all (the orchestrator's and every sub-agent's), the
 * critical steps as run, sub-agents launched by the orchestrator and how many of them finished.
 */
const SCRIPTED: Record<string, { total: number; critical: number; launched: number; completed: number; serialCollapse: boolean }> = {
  // orchestrator 2 calls; alpha 2, beta 3, gamma 1, all at once: 1 + 3 + 1 critical.
  'parallel-swarm': { total: 8, critical: 5, launched: 3, completed: 3, serialCollapse: false },
  // orchestrator 4 calls, one worker per turn: (1+2) + (1+3) + (1+1) + 1.
  'serial-collapse': { total: 10, critical: 10, launched: 3, completed: 3, serialCollapse: true },
  // orchestrator 3 calls, alpha 2 then beta 2 (beta's input quotes alpha's report).
  'dependent-pipeline': { total: 7, critical: 7, launched: 2, completed: 2, serialCollapse: false },
  // orchestrator 2 calls; alpha 2 and flaky 2 (its second call fails) at once.
  'failing-subagent': { total: 6, critical: 4, launched: 2, completed: 1, serialCollapse: false },
  // orchestrator 2; lead 2 with delta 2 and epsilon 2 at once; alpha 3 beside the lead.
  'nested-subagents': { total: 11, critical: 6, launched: 2, completed: 2, serialCollapse: false },
};

describe.each(['langsmith', 'langsmith-ingest'])('%s: the counts the scripted run had', (folder) => {
  it.each(SCENARIOS)('%s: total steps are the llm runs posted, and critical steps, sub-agents and serial collapse are the script\'s', async (scenario) => {
    const llmRuns = new Set(runsOf(folder, scenario).filter((r) => r['run_type'] === 'llm').map((r) => r.id));
    const { results } = await collect([readFileSync(`${root}${folder}/${scenario}.jsonl`, 'utf8')], { strict: true });
    const result = results[0] as TraceResult;
    const steps = criticalSteps(result.record.stages ?? []);
    const counts = subagentCounts(result.record);
    const want = SCRIPTED[scenario] as (typeof SCRIPTED)[string];
    expect(llmRuns.size).toBe(want.total);
    expect([steps.total_steps, steps.critical_steps, counts.launched, counts.completed, result.finding.serial_collapse]).toEqual([want.total, want.critical, want.launched, want.completed, want.serialCollapse]);
  });
});

describe('LangSmith run operations in any batching', () => {
  it.each(SCENARIOS)('%s: any runs split into a create and a later update, the update anywhere after it, read as the stored runs', async (scenario) => {
    const stored = runsOf('langsmith', scenario);
    const text = (runs: readonly Record<string, unknown>[]) => runs.map((r) => JSON.stringify(r)).join('\n');
    const expected = (await collect([text(stored)], { strict: true })).results[0] as TraceResult;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.nat()), { minLength: stored.length, maxLength: stored.length }), async (choices) => {
        const lines: Record<string, unknown>[] = [];
        const updates: { after: number; run: Record<string, unknown> }[] = [];
        stored.forEach((run, i) => {
          const [split, delay] = choices[i] as [boolean, number];
          if (!split) {
            lines.push(run);
            return;
          }
          const { end_time: _end, outputs: _outputs, error: _error, ...create } = run;
          lines.push(create);
          updates.push({ after: i + (delay % (stored.length - i)), run });
        });
        // Each update goes after the stored run at its position (so after its create).
        const ordered: Record<string, unknown>[] = [];
        lines.forEach((line, i) => {
          ordered.push(line);
          for (const u of updates) if (u.after === i) ordered.push(u.run);
        });
        const { results, warnings } = await collect([text(ordered)], { strict: true });
        expect(warnings).toEqual([]);
        expect(results).toHaveLength(1);
        // Sub-agents that started together are ordered by end, then id, never by arrival: the
        // same record and finding whatever the batching.
        expect((results[0] as TraceResult).record).toEqual(expected.record);
        expect((results[0] as TraceResult).finding).toEqual(expected.finding);
      }),
      { numRuns: 25 },
    );
  });
});

describe('LangSmith run creates held for their updates', () => {
  const create = (id: string) => ({ id, run_type: 'chain', start_time: '2026-01-01T00:00:00Z', child_runs: [] });
  it('merges an update over its create, passes other values through, and keeps no more than its limit open', () => {
    const ops = new LangSmithRunOperations(2);
    expect(ops.take(create('a'), 'line 1')).toBeUndefined();
    expect(ops.take({ id: 'x', run_type: 'llm', end_time: 5 }, 'line 2')).toEqual({ value: { id: 'x', run_type: 'llm', end_time: 5 }, location: 'line 2' });
    expect(ops.take({ id: 'a', end_time: '2026-01-01T00:00:01Z', outputs: { answer: 'done' } }, 'line 3')).toEqual({
      value: { ...create('a'), end_time: '2026-01-01T00:00:01Z', outputs: { answer: 'done' } },
      location: 'line 3 (the update of the run created at line 1)',
    });
    expect(ops.openRuns).toBe(0);
    // A run tree with its children filled in is an export, read as it is.
    const tree = { ...create('t'), child_runs: [create('c')] };
    expect(ops.take(tree, 'line 4')).toEqual({ value: tree, location: 'line 4' });
    ops.take(create('b'), 'line 5');
    ops.take(create('c'), 'line 6');
    expect(() => ops.take(create('d'), 'line 7')).toThrow('line 7 must be at most 2 runs open at once (a run created without end_time waits for the update with its id), got "3 LangSmith runs created and not yet updated"');
    expect(ops.drain().map((o) => o.location)).toEqual(['line 5', 'line 6']);
    expect(ops.openRuns).toBe(0);
  });
});

/** The spans of a length-prefixed protobuf fixture, with their scope, status, events and attributes. */
function otlpSpansOf(file: string): { scope: string; name: string; status?: { code?: number }; events?: { name: string }[]; attr: (key: string) => string | undefined }[] {
  const bytes = readFileSync(`${root}langsmith-otel/${file}`);
  const out: ReturnType<typeof otlpSpansOf> = [];
  for (let offset = 0; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const request = decodeOtlpProtobuf(new Uint8Array(bytes.subarray(offset + 4, offset + 4 + length))) as {
      resourceSpans: { scopeSpans: { scope: { name: string }; spans: { name: string; status?: { code?: number }; events?: { name: string }[]; attributes: { key: string; value: { stringValue?: string } }[] }[] }[] }[];
    };
    offset += 4 + length;
    for (const rs of request.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          const { attributes, ...rest } = span;
          out.push({ scope: ss.scope.name, ...rest, attr: (key) => attributes.find((a) => a.key === key)?.value.stringValue });
        }
      }
    }
  }
  return out;
}

describe("LangSmith's OpenTelemetry mode", () => {
  const files = readdirSync(`${root}langsmith-otel`).sort();

  it('on LangGraph: exports nothing for LangGraph alone, and only the traceable span around it: one span, with no model call, tool or sub-agent', () => {
    expect(files).toEqual(SCENARIOS.flatMap((s) => [`${s}-in-traceable.binpb`, `${s}-traceable-agents.binpb`]).sort());
    for (const scenario of SCENARIOS) {
      const spans = otlpSpansOf(`${scenario}-in-traceable.binpb`);
      expect(spans.map((s) => [s.scope, s.name])).toEqual([['langsmith', 'app']]);
      expect(spans[0]?.attr('langsmith.traceable')).toBe('true');
      // The LangGraph runs inside wrote their attributes onto the app's span (the SDK's translator).
      expect(spans[0]?.attr('langsmith.metadata.ls_integration')).toBe('langgraph');
    }
  });

  it.each(SCENARIOS)('on LangGraph, %s: parl trace writes no record, warns naming the trace and what is missing, and fails under strict', async (scenario) => {
    const bytes = new Uint8Array(readFileSync(`${root}langsmith-otel/${scenario}-in-traceable.binpb`));
    const { results, warnings } = await collect([bytes]);
    expect(results).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^skipped protobuf request 1 \(byte 0\): trace [0-9a-f]{32} must be a trace with at least one step, but it has no recognised model call .* got "1 span\(s\) without step information"$/)]);
    const err = await collectError([bytes], { strict: true });
    expect(err.message).toMatch(/has no recognised model call/);
  });

  it.each(SCENARIOS)('agents made of traceable functions, %s: one span per run, read through langsmith.span.kind to the scripted counts', async (scenario) => {
    const spans = otlpSpansOf(`${scenario}-traceable-agents.binpb`);
    expect(spans.every((s) => s.scope === 'langsmith' && s.attr('langsmith.traceable') === 'true')).toBe(true);
    const want = SCRIPTED[scenario] as (typeof SCRIPTED)[string];
    expect(spans.filter((s) => s.attr('langsmith.span.kind') === 'llm')).toHaveLength(want.total);
    const { results, warnings } = await collect([new Uint8Array(readFileSync(`${root}langsmith-otel/${scenario}-traceable-agents.binpb`))], { strict: true });
    expect(warnings).toEqual([]);
    const result = results[0] as TraceResult;
    expect(result.warnings).toEqual([]);
    const steps = criticalSteps(result.record.stages ?? []);
    const counts = subagentCounts(result.record);
    expect([steps.total_steps, steps.critical_steps, counts.launched, counts.completed, result.finding.serial_collapse]).toEqual([want.total, want.critical, want.launched, want.completed, want.serialCollapse]);
    if (scenario === 'serial-collapse') expect(result.finding.patterns.map((p) => [p.kind, p.independence])).toEqual([['one_per_turn', 'likely']]);
    if (scenario === 'dependent-pipeline') expect(result.finding.patterns.map((p) => [p.kind, p.independence])).toEqual([['one_per_turn', 'dependent']]);
  });

  it('a failed run: status OK (the SDK sets OK at the start, and OpenTelemetry keeps OK final) with an exception event, read as not finished', async () => {
    const failed = otlpSpansOf('failing-subagent-traceable-agents.binpb').filter((s) => s.events?.some((e) => e.name === 'exception'));
    expect(failed.map((s) => s.name).sort()).toEqual(['ScriptedChatModel', 'ask_flaky', 'flaky']);
    expect(failed.map((s) => s.status?.code)).toEqual([1, 1, 1]);
    const { results } = await collect([new Uint8Array(readFileSync(`${root}langsmith-otel/failing-subagent-traceable-agents.binpb`))]);
    expect(results[0]?.record.stages?.[0]?.sub_steps).toEqual(expect.arrayContaining([{ steps: 2, finished: false }, { steps: 2, finished: true }]));
  });

  it('an exception event marks an error only on LangSmith spans (elsewhere the exception may have been handled)', async () => {
    const event = { name: 'exception', timeUnixNano: '0', attributes: [] };
    const withEvent = (langsmith: boolean): string => {
      const req = JSON.parse(otlpLine([
        { id: 'root', op: 'invoke_agent', agent: 'boss', start: 0, end: 300 },
        { id: 'llm', parent: 'root', op: 'chat', start: 0, end: 100 },
        { id: 'tool', parent: 'root', op: 'execute_tool', start: 100, end: 250 },
        { id: 'sub', parent: 'tool', op: 'invoke_agent', agent: 'helper', start: 100, end: 250, extraAttributes: langsmith ? [{ key: 'langsmith.span.kind', value: { stringValue: 'agent' } }] : [] },
        { id: 'subllm', parent: 'sub', op: 'chat', start: 110, end: 200 },
      ])) as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
      for (const span of req.resourceSpans[0]?.scopeSpans[0]?.spans ?? []) if (span['spanId'] === 'sub') span['events'] = [event];
      return JSON.stringify(req);
    };
    const finishedOf = async (text: string) => (await collect([text])).results[0]?.record.stages?.[0]?.sub_steps;
    expect(await finishedOf(withEvent(false))).toEqual([{ steps: 1, finished: true }]);
    expect(await finishedOf(withEvent(true))).toEqual([{ steps: 1, finished: false }]);
  });
});
