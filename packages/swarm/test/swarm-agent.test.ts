/**
 * `SwarmAgent`: the swarm as an AI SDK `Agent`. Its record equals `runEpisode`'s for the same
 * scripted episode; `stream()` yields the orchestrator's text and the swarm's typed events.
 */
import { readFile } from 'node:fs/promises';
import type { Agent } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { generateSuite, runEpisode, scriptedLookupModel, scriptedOrchestrator, SwarmAgent, type SwarmEvent, type SwarmTask, type TaskTool } from '../src/index.js';
import { orchestratorFrom } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 6, entities: 3, attributes: 2 }) as [SwarmTask];

function withoutWall(record: Record<string, unknown>): Record<string, unknown> {
  const { wall_ms: _wall, ...rest } = record;
  return rest;
}

function agent(budget?: number): SwarmAgent {
  return new SwarmAgent({
    id: task.id,
    model: scriptedOrchestrator('parallel'),
    subagentModel: scriptedLookupModel(),
    tools: task.tools,
    score: (answer) => task.score(answer),
    concurrency: 2,
    ...(budget === undefined ? {} : { budget }),
  });
}

describe('SwarmAgent', () => {
  it('is an AI SDK Agent', () => {
    expectTypeOf<SwarmAgent>().toMatchTypeOf<Agent<never, {}>>();
    expect(agent().version).toBe('agent-v1');
  });

  it('generate(): the answer is the result\'s text; the record equals runEpisode\'s for the same scripted episode', async () => {
    const result = await agent().generate({ prompt: task.prompt });
    const direct = await runEpisode(task, { orchestrator: scriptedOrchestrator('parallel'), subagentModel: scriptedLookupModel(), concurrency: 2, trainingStep: 0 }, `${task.id}/run-0`);
    expect(withoutWall(result.record)).toEqual(withoutWall(direct.record));
    expect(result.text).toBe(direct.answer);
    expect(result.record.r_perf).toBe(1);
    expect(result.reward).toEqual({ total_reward: direct.record['total_reward'], r_parallel: direct.record['r_parallel'], r_finish: 1, r_perf: 1 });
  });

  it('stream(): the orchestrator\'s text and the typed events, in order; raw parts in fullStream', async () => {
    const result = await agent().stream({ prompt: task.prompt });
    const events: SwarmEvent[] = [];
    for await (const e of result.swarmEvents) events.push(e);
    const text = await result.text;
    const { record } = await result.swarm;
    expect(text).toBe(events.flatMap((e) => (e.type === 'orchestrator-text' ? [e.text] : [])).join('\n'));
    expect(events.filter((e) => e.type === 'subagent-created').map((e) => (e as { name: string }).name)).toEqual(['worker-1', 'worker-2', 'worker-3']);
    const started = events.filter((e) => e.type === 'subagent-started');
    const finished = events.filter((e) => e.type === 'subagent-finished');
    expect(started).toHaveLength(3);
    expect(finished.every((e) => e.type === 'subagent-finished' && e.finished && e.steps === 3)).toBe(true);
    // Concurrency 2: the third starts after one of the first two finished.
    const third = events.indexOf(started[2] as SwarmEvent);
    expect(events.slice(0, third).some((e) => e.type === 'subagent-finished')).toBe(true);
    expect(events.filter((e) => e.type === 'stage-closed')).toEqual([{ type: 'stage-closed', stage: 0, subagents: 3 }, { type: 'stage-closed', stage: 1, subagents: 0 }]);
    expect(record.num_subagents).toBe(3);
    const raw: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'raw') raw.push(part.rawValue);
    expect(raw).toEqual(events);
  });

  it('a call the budget refuses is an event, and the record says the budget ran out', async () => {
    // The parallel turn costs 1 + 3 (+3 for the second wave at concurrency 2): 4 is not enough.
    const result = await agent(4).stream({ prompt: task.prompt });
    const events: SwarmEvent[] = [];
    for await (const e of result.swarmEvents) events.push(e);
    const { record } = await result.swarm;
    expect(events.some((e) => e.type === 'budget-refused')).toBe(true);
    expect(record.budget_exhausted).toBe(true);
  });
});

describe('SwarmAgent with MCP servers (the settings of parl swarm run\'s --mcp rows)', () => {
  it('starts the servers on its first run, its orchestrator calls their tools, close() stops them', async () => {
    const { stdioMcpSpec } = await import('@parl/test-support/mcp-servers');
    const { orchestratorFrom, toolTexts } = await import('./support.js');
    const swarm = new SwarmAgent({
      model: orchestratorFrom((n, options) => (n === 0 ? [['capital', { country: 'Japan' }], ['has_env', { name: 'PARL_AGENT_FORWARDED' }]] : toolTexts(options).join(' | '))),
      subagentModel: scriptedLookupModel(),
      mcp: [stdioMcpSpec()],
      mcpEnv: ['PARL_AGENT_FORWARDED'],
    });
    process.env['PARL_AGENT_FORWARDED'] = 'yes';
    try {
      const result = await swarm.generate({ prompt: 'What is the capital of Japan?' });
      expect(result.text).toBe('Tokyo | set');
      expect(result.record.tool_errors).toBe(0);
    } finally {
      delete process.env['PARL_AGENT_FORWARDED'];
      await swarm.close();
    }
  }, 30_000);

  it('checks its MCP settings with the rows parl swarm run\'s flags use: a literal client secret or a header without NAME: is refused, its value not shown', async () => {
    const { stdioMcpSpec } = await import('@parl/test-support/mcp-servers');
    const secret = 'agent-literal-secret-93ad';
    const literal = new SwarmAgent({ model: scriptedLookupModel(), mcp: [stdioMcpSpec()], mcpClientId: 'c', mcpClientSecret: secret });
    const header = new SwarmAgent({ model: scriptedLookupModel(), mcp: [stdioMcpSpec()], mcpHeader: ['Authorization: Bearer env:PARL_AGENT_TOKEN', `X-Key ${secret}`] });
    try {
      const refusedSecret = await literal.generate({ prompt: 'hi' }).then(() => undefined, (err: unknown) => err as Error);
      expect(refusedSecret?.message).toMatch(/^options\.mcpClientSecret must be env:VAR/);
      expect(refusedSecret?.message).not.toContain(secret);
      const refusedHeader = await header.generate({ prompt: 'hi' }).then(() => undefined, (err: unknown) => err as Error);
      expect(refusedHeader?.message).toMatch(/^options\.mcpHeader must be a header 'NAME: VALUE'/);
      expect(refusedHeader?.message).not.toContain(secret);
    } finally {
      await literal.close();
      await header.close();
    }
  }, 30_000);
});

describe('SwarmAgent tools, as docs/swarm.md shows them', () => {
  it('the documented tools block runs as it is: the orchestrator calls it and reads its result', async () => {
    const doc = await readFile(new URL('../../../docs/swarm.md', import.meta.url), 'utf8');
    const block = /<!-- example: swarm-agent-tools -->\n```ts\n([\s\S]*?)```\n<!-- \/example: swarm-agent-tools -->/.exec(doc)?.[1];
    expect(block, 'docs/swarm.md has the swarm-agent-tools example').toBeDefined();
    // The block is JavaScript as well as TypeScript: run it as written and take its `tools`.
    const tools = new Function(`${block as string}\nreturn tools;`)() as TaskTool[];
    const orchestrator = orchestratorFrom((call, options) => {
      if (call === 0) return [['lookup_capital', { country: 'Kenya' }]];
      const result = options.prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).find((p) => p.type === 'tool-result');
      return `The capital is ${JSON.stringify(result?.type === 'tool-result' ? result.output : null)}`;
    });
    const result = await new SwarmAgent({ model: orchestrator, tools }).generate({ prompt: 'What is the capital of Kenya?' });
    expect(result.text).toContain('Nairobi');
    expect(result.record['tool_errors'] ?? 0).toBe(0);
  });
});
