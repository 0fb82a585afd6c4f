import { describe, expect, it } from 'vitest';
import type { StageRecord } from '@parl/core';
import { entrySteps } from './support/entry-steps.js';
import { Agent } from '@openai/agents-core';
import { captureRun, functionCall, message, scriptedModel, serialPipelineTool, subAgent } from './support/openai-agents-run.js';
import { collect } from './support/collect.js';

const DELAY = 30;

/** [main steps, sub-agent steps in descending order] per stage: within a group, order carries no meaning. */
function stepsOf(stages: readonly StageRecord[] | undefined) {
  return stages?.map((s) => [s.main_steps, (s.sub_steps ?? []).map((e) => entrySteps(e)).sort((a, b) => b - a)]);
}

describe('OpenAI Agents JS SDK traces (real SDK, scripted model)', () => {
  it('maps sub-agents called as tools in one turn into one parallel group', async () => {
    const orchestrator = new Agent({
      name: 'orchestrator',
      instructions: 'Delegate.',
      tools: [
        subAgent('researcher', 2, DELAY).asTool({ toolName: 'research', toolDescription: 'research' }),
        subAgent('writer', 1, DELAY).asTool({ toolName: 'write', toolDescription: 'write' }),
      ],
      model: scriptedModel([[functionCall('research', 'c1', { input: 'topic' }), functionCall('write', 'c2', { input: 'draft' })], [message('final')]], DELAY),
    });
    const run = await captureRun(orchestrator, 'go');
    // Since 0.20 every model call is a custom `turn` span with the scripted model's `generation`
    // span inside it: 2 orchestrator + 2 researcher + 1 writer calls, each counted once below.
    const spanTypes = run.items.map((it) => it['span_data'] as { type?: string; data?: { sdk_span_type?: string } } | undefined);
    expect(spanTypes.filter((d) => d?.type === 'custom' && d.data?.sdk_span_type === 'turn')).toHaveLength(5);
    expect(spanTypes.filter((d) => d?.type === 'generation')).toHaveLength(5);
    const { results } = await collect([run.jsonl]);
    expect(results).toHaveLength(1);
    const r = results[0];
    expect(r?.format).toBe('openai-agents');
    expect(r?.traceId).toBe(run.traceId);
    expect(r?.orchestrator).toBe('orchestrator');
    expect(stepsOf(r?.record.stages)).toEqual([
      [1, [2, 1]],
      [1, []],
    ]);
    expect(r?.finding.serial_collapse).toBe(false);
    expect(r?.finding.critical_steps_saved).toBe(0);
    // With tool calls as steps: the researcher called lookup once, the writer never.
    const tools = await collect([run.jsonl], { stepsFrom: 'tools' });
    expect(stepsOf(tools.results[0]?.record.stages)).toEqual([
      [1, [1, 0]],
      [1, []],
    ]);
  });

  it('finds serial collapse when one tool runs the sub-agents one after another', async () => {
    const orchestrator = new Agent({
      name: 'orchestrator',
      instructions: 'Delegate.',
      tools: [serialPipelineTool('team', [subAgent('researcher', 2, DELAY), subAgent('writer', 1, DELAY)])],
      model: scriptedModel([[functionCall('team', 'c1', { task: 'report' })], [message('final')]], DELAY),
    });
    const run = await captureRun(orchestrator, 'go');
    const { results } = await collect([run.jsonl]);
    const f = results[0]?.finding;
    expect(f?.serial_collapse).toBe(true);
    expect(f?.patterns.map((p) => [p.kind, p.turns, p.groups.map((w) => w.map((s) => s.name))])).toEqual([['waves', [1], [['researcher'], ['writer']]]]);
    // As run: 1 + max(2, 2 + 1) + 1 = 5 (the writer waited for the researcher's 2 steps); together: (1 + max(2, 1)) + 1 = 4.
    expect([f?.critical_steps_as_run, f?.critical_steps_if_parallel, f?.critical_steps_saved]).toEqual([5, 4, 1]);
    expect(stepsOf(results[0]?.record.stages)).toEqual([
      [1, [2, 1]],
      [1, []],
    ]);
    expect((results[0]?.record.stages?.[0]?.sub_steps?.[1] as { wait_steps?: number }).wait_steps).toBe(2);
  });

  it('marks a sub-agent whose run ended in error as not finished', async () => {
    const orchestrator = new Agent({
      name: 'orchestrator',
      instructions: 'Delegate.',
      tools: [
        subAgent('researcher', 1, DELAY).asTool({ toolName: 'research', toolDescription: 'research' }),
        subAgent('flaky', 2, DELAY, true).asTool({ toolName: 'flaky', toolDescription: 'fails' }),
      ],
      model: scriptedModel([[functionCall('research', 'c1', { input: 'a' }), functionCall('flaky', 'c2', { input: 'b' })], [message('final')]], DELAY),
    });
    const run = await captureRun(orchestrator, 'go');
    const flakySpan = run.items.find((it) => (it['span_data'] as { name?: string } | undefined)?.name === 'flaky' && (it['span_data'] as { type: string }).type === 'agent');
    expect(flakySpan?.['error']).not.toBeNull();
    const { results } = await collect([run.jsonl]);
    const group = [...(results[0]?.record.stages?.[0]?.sub_steps ?? [])].sort((a, b) => entrySteps(a) - entrySteps(b));
    expect(group).toEqual([
      { steps: 1, finished: true },
      { steps: 2, finished: false },
    ]);
  });

  it('reads the exporter payload form {"data": [...]} as well as JSONL', async () => {
    const orchestrator = new Agent({
      name: 'orchestrator',
      instructions: 'Delegate.',
      tools: [subAgent('researcher', 1, DELAY).asTool({ toolName: 'research', toolDescription: 'research' })],
      model: scriptedModel([[functionCall('research', 'c1', { input: 'a' })], [message('final')]], DELAY),
    });
    const run = await captureRun(orchestrator, 'go');
    const payload = JSON.stringify({ data: run.items }, null, 2);
    const fromPayload = await collect([payload]);
    const fromLines = await collect([run.jsonl]);
    expect(fromPayload.results.map((r) => r.record)).toEqual(fromLines.results.map((r) => r.record));
    expect(fromLines.results[0]?.record.stages?.length).toBe(2);
  });
});
