/**
 * Traces written by the real frameworks (test/fixtures/frameworks, see its README for versions and
 * the generator): every framework gives the same records and findings for the same scenario.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { criticalSteps, subagentCounts } from '@parl/core';
import type { StageRecord, SubAgentEntry } from '@parl/core';
import type { TraceResult } from '../src/index.js';
import { collect } from './support/collect.js';

const root = fileURLToPath(new URL('./fixtures/frameworks/', import.meta.url));
/** Google ADK runs one response's tool calls one after another: its records differ where others run them at once (tested below). */
const SEQUENTIAL_TOOLS = new Set(['google-adk']);
/** LangSmith's OpenTelemetry mode exports no LangGraph run (test/langsmith-sdk.test.ts): no scenario records there. */
const NO_RUN_SPANS = new Set(['langsmith-otel']);
const frameworks = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !SEQUENTIAL_TOOLS.has(d.name) && !NO_RUN_SPANS.has(d.name))
  .map((d) => d.name);

/** `main:[sub steps, ! = not finished, {…} = a nested entry's own stages]` per stage, sub-agents sorted (order within a group carries no meaning). */
function shape(r: TraceResult): string {
  return stagesShape(r.record.stages ?? []);
}

function stagesShape(stages: readonly StageRecord[]): string {
  return stages.map((s) => `${s.main_steps}:[${(s.sub_steps ?? []).map(entryShape).sort().join(',')}]`).join(' ');
}

/** An entry's steps (`{…}` for a nested one), `!` when it did not finish, after `W+` when it waited W steps (spec §2). */
function entryShape(e: SubAgentEntry): string {
  if (typeof e === 'number') return `${e}`;
  const mark = e.finished === false ? '!' : '';
  const wait = e.wait_steps === undefined ? '' : `${e.wait_steps}+`;
  return 'stages' in e ? `${wait}{${stagesShape(e.stages)}}${mark}` : `${wait}${e.steps}${mark}`;
}

async function read(framework: string, scenario: string): Promise<{ result: TraceResult; warnings: readonly string[] }> {
  const { results, warnings } = await collect([readFileSync(`${root}${framework}/${scenario}.jsonl`, 'utf8')], { strict: framework !== 'openai-agents' && framework !== 'openai-agents-response-spans' });
  expect(results).toHaveLength(1);
  expect(warnings).toEqual([]);
  return { result: results[0] as TraceResult, warnings: [...warnings, ...(results[0]?.warnings ?? [])] };
}

describe.each(frameworks)('%s traces', (framework) => {
  it('parallel swarm: one stage with the three workers, no serial collapse', async () => {
    const { result } = await read(framework, 'parallel-swarm');
    expect(shape(result)).toBe('1:[1,2,3] 1:[]');
    expect(result.finding).toMatchObject({ serial_collapse: false, patterns: [], critical_steps_as_run: 5, critical_steps_if_parallel: 5, critical_steps_saved: 0 });
    expect(result.warnings).toEqual([]);
  });

  it('serial collapse: one worker per turn is a one_per_turn pattern, likely independent', async () => {
    const { result } = await read(framework, 'serial-collapse');
    expect(shape(result)).toBe('1:[2] 1:[3] 1:[1] 1:[]');
    const f = result.finding;
    expect(f.serial_collapse).toBe(true);
    expect(f.patterns.map((p) => [p.kind, p.turns, p.stages, p.groups.map((g) => g.map((s) => s.name)), p.independence])).toEqual([
      ['one_per_turn', [1, 2, 3], [0, 1, 2], [['alpha'], ['beta'], ['gamma']], 'likely'],
    ]);
    // As run 1+2 + 1+3 + 1+1 + 1 = 10; launched together from turn 1: 1 + max(2,3,1) + 1 = 5.
    expect([f.critical_steps_as_run, f.critical_steps_if_parallel, f.critical_steps_saved]).toEqual([10, 5, 5]);
  });

  it('dependent pipeline: the second input quotes the first output, so no serial collapse', async () => {
    const { result } = await read(framework, 'dependent-pipeline');
    expect(shape(result)).toBe('1:[2] 1:[2] 1:[]');
    const f = result.finding;
    expect(f.patterns.map((p) => [p.kind, p.independence])).toEqual([['one_per_turn', 'dependent']]);
    expect([f.serial_collapse, f.critical_steps_as_run, f.critical_steps_if_parallel, f.critical_steps_saved]).toEqual([false, 7, 7, 0]);
  });

  it('failing sub-agent: counted with finished false', async () => {
    const { result } = await read(framework, 'failing-subagent');
    expect(shape(result)).toBe('1:[2,2!] 1:[]');
  });

  it('nested sub-agents: the lead is a nested entry (spec §5.2), exact in critical and total steps', async () => {
    const { result } = await read(framework, 'nested-subagents');
    // The lead (2 model calls) ran its two workers (2 calls each) at once, beside a worker of 3.
    expect(shape(result)).toBe('1:[3,{1:[2,2] 1:[]}] 1:[]');
    const r = criticalSteps(result.record.stages ?? []);
    // Its critical steps are 1 + 2 + 1 = 4 of its own, its work 6: the record is 1 + max(3, 4) + 1
    // = 6 critical steps and every model call of the trace, 2 + 3 + 6 = 11, as total steps.
    expect([r.critical_steps, r.total_steps]).toEqual([6, 11]);
    expect(result.finding.critical_steps_as_run).toBe(6);
    expect(subagentCounts(result.record).launched).toBe(2);
  });
});

describe('OpenAI Agents SDK handoffs', () => {
  it.each(['openai-agents', 'openai-agents-response-spans'])('%s: triage hands off to a planner; both act as one orchestrator', async (framework) => {
    const { results } = await collect([readFileSync(`${root}${framework}/handoff.jsonl`, 'utf8')]);
    const r = results[0] as TraceResult;
    expect(r.orchestrator).toBe('triage + planner');
    expect(shape(r)).toBe('1:[] 1:[2,2] 1:[]');
    expect(r.warnings).toEqual([expect.stringContaining('2 top-level agents ("triage", "planner")')]);
  });
});

describe('model calls are counted once', () => {
  it('an OpenAI Agents turn span with a response span inside gives the same record as the turn span alone', async () => {
    for (const scenario of ['parallel-swarm', 'serial-collapse', 'nested-subagents']) {
      const turns = await read('openai-agents', scenario);
      const responses = await read('openai-agents-response-spans', scenario);
      expect(shape(responses.result)).toBe(shape(turns.result));
      expect(readFileSync(`${root}openai-agents-response-spans/${scenario}.jsonl`, 'utf8')).toContain('"type":"response"');
    }
  });
});

describe('OpenInference on the Vercel AI SDK', () => {
  /** The fixture with every `gen_ai.*` attribute removed: only OpenInference's own attributes left. */
  function openInferenceOnly(scenario: string): string {
    const lines = readFileSync(`${root}ai-sdk-openinference/${scenario}.jsonl`, 'utf8').trim().split('\n');
    return lines
      .map((line) => {
        const req = JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: { attributes?: { key: string }[] }[] }[] }[] };
        for (const rs of req.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) s.attributes = (s.attributes ?? []).filter((a) => !a.key.startsWith('gen_ai.'));
        return JSON.stringify(req);
      })
      .join('\n') + '\n';
  }

  it.each(['parallel-swarm', 'serial-collapse', 'dependent-pipeline', 'failing-subagent', 'nested-subagents'])(
    '%s: the OpenInference span kinds alone (AGENT, CHAIN, LLM, TOOL) give the same record and finding as the GenAI attributes beside them',
    async (scenario) => {
      const both = await read('ai-sdk-openinference', scenario);
      const oiText = openInferenceOnly(scenario);
      expect(oiText).not.toContain('gen_ai.operation.name');
      expect(oiText).toContain('"openinference.span.kind"');
      const { results, warnings } = await collect([oiText], { strict: true });
      expect(warnings).toEqual([]);
      const oi = results[0] as TraceResult;
      expect(shape(oi)).toBe(shape(both.result));
      expect(oi.finding).toEqual(both.result.finding);
    },
  );
});

describe('VoltAgent: steps derived from one llm span per agent run', () => {
  it.each(['voltagent-subagents', 'voltagent-as-tools'])('%s: the finding says the steps were derived and how', async (framework) => {
    for (const scenario of ['parallel-swarm', 'serial-collapse', 'nested-subagents']) {
      const { result } = await read(framework, scenario);
      expect(result.finding.steps_derived).toMatch(/^VoltAgent records one llm span per agent run, not one per model call: model calls are derived as one response per wave/);
    }
    // Every other framework records model calls one by one: no such field.
    const { result } = await read('mastra', 'parallel-swarm');
    expect(result.finding.steps_derived).toBeUndefined();
  });

  it('reads VoltAgent\'s span.type and subagent.name: the sub-agents are named, not their parent', async () => {
    const { result } = await read('voltagent-subagents', 'serial-collapse');
    expect(result.orchestrator).toBe('orchestrator');
    expect(result.finding.patterns[0]?.groups.map((g) => g.map((s) => s.name))).toEqual([['alpha'], ['beta'], ['gamma']]);
    const raw = readFileSync(`${root}voltagent-subagents/serial-collapse.jsonl`, 'utf8');
    expect(raw).toContain('"subagent:alpha"');
    expect(raw).toContain('"llm:generateText"');
    expect(raw).not.toContain('gen_ai.operation.name');
  });
});

describe('Strands Agents: the record says what ran', () => {
  it('one response asking three workers, run one after another by the sequential executor: three waves, a waves pattern', async () => {
    const { result } = await read('strands', 'sequential-tools');
    // One stage: beta waited for alpha's 2 steps, gamma for alpha's and beta's 5.
    expect(shape(result)).toBe('1:[2,2+3,5+1] 1:[]');
    const f = result.finding;
    expect(f.patterns.map((p) => [p.kind, p.turns, p.groups.map((g) => g.map((s) => s.name)), p.independence])).toEqual([['waves', [1], [['alpha'], ['beta'], ['gamma']], 'likely']]);
    // As run 1 + (5+1) + 1 = 8; launched together (the concurrent default) 1 + 3 + 1 = 5.
    expect([f.serial_collapse, f.critical_steps_as_run, f.critical_steps_if_parallel]).toEqual([true, 8, 5]);
  });
});

describe('Google ADK: one response\'s tool calls run one after another, and the record says so', () => {
  it('parallel swarm asked in one response: three waves as run, a waves pattern, likely independent', async () => {
    const { result } = await read('google-adk', 'parallel-swarm');
    expect(shape(result)).toBe('1:[2,2+3,5+1] 1:[]');
    const f = result.finding;
    expect(f.patterns.map((p) => [p.kind, p.turns, p.groups.map((g) => g.map((s) => s.name)), p.independence])).toEqual([['waves', [1], [['alpha'], ['beta'], ['gamma']], 'likely']]);
    expect([f.serial_collapse, f.critical_steps_as_run, f.critical_steps_if_parallel]).toEqual([true, 8, 5]);
  });

  it('serial collapse and the dependent pipeline read as on every framework', async () => {
    const serial = (await read('google-adk', 'serial-collapse')).result;
    expect(shape(serial)).toBe('1:[2] 1:[3] 1:[1] 1:[]');
    expect(serial.finding.patterns.map((p) => [p.kind, p.independence])).toEqual([['one_per_turn', 'likely']]);
    expect([serial.finding.critical_steps_as_run, serial.finding.critical_steps_if_parallel]).toEqual([10, 5]);
    const pipeline = (await read('google-adk', 'dependent-pipeline')).result;
    expect(shape(pipeline)).toBe('1:[2] 1:[2] 1:[]');
    expect([pipeline.finding.serial_collapse, pipeline.finding.patterns.map((p) => p.independence)]).toEqual([false, ['dependent']]);
  });

  it('a failing sub-agent: ADK 2.0 records its failed model call as a span without attributes and status unset, so it reads as finished', async () => {
    const { result } = await read('google-adk', 'failing-subagent');
    expect(shape(result)).toBe('1:[2,2+1] 1:[]');
  });

  it('nested sub-agents: the lead is a nested entry whose own workers ran one after another', async () => {
    const { result } = await read('google-adk', 'nested-subagents');
    // The lead's own workers ran one after another (2, then 2 after waiting 2): its critical steps 1 + 4 + 1 = 6; the worker after it waited 6.
    expect(shape(result)).toBe('1:[6+3,{1:[2,2+2] 1:[]}] 1:[]');
    expect(result.finding.patterns.map((p) => [p.kind, p.within.map((w) => w.name)])).toEqual([
      ['waves', []],
      ['waves', ['lead']],
    ]);
  });
});
