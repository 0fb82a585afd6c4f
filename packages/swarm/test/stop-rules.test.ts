import { describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, type SwarmTask } from '../src/index.js';
import type { ModelCaller, ModelReply, ModelTurn } from '../src/runtime/model-caller.js';
import { agentRules, firstStop } from '../src/runtime/stop-rules.js';
import { scriptedMock, settingsWith } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 5, entities: 2, attributes: 1 }) as [SwarmTask];

const reply = (toolCalls: ModelReply['toolCalls']): ModelReply => ({
  text: 'x', reasoning: undefined, toolCalls, inputTokens: undefined, outputTokens: undefined, logprobs: undefined, tokenIds: undefined, promptTokenIds: undefined, attempts: 1,
});
const caller = (fits?: boolean): ModelCaller => ({
  name: { provider: 'p', modelId: 'm' },
  call: () => Promise.reject(new Error('not called')),
  ...(fits === undefined ? {} : { fits: () => fits }),
});
const turn = {} as ModelTurn;

describe('the stop rules, asked in order before each model call', () => {
  it('an answer at the last allowed call is an answer, not the step cap', () => {
    const rules = agentRules({ cancel: new AbortController().signal, episode: { budgetExhausted: false }, cap: 2, fits: () => true, caller: caller() });
    expect(firstStop(rules, { steps: 2, lastReply: reply([]), turn })).toBe('answered');
    expect(firstStop(rules, { steps: 2, lastReply: reply([{ id: '1', name: 't', input: {}, invalid: undefined }]), turn })).toBe('step_cap');
    expect(firstStop(rules, { steps: 1, lastReply: reply([{ id: '1', name: 't', input: {}, invalid: undefined }]), turn })).toBeUndefined();
  });

  it('a cancel comes before the budget; a spent budget before the step cap; the context rule only with a caller that knows its context', () => {
    const cancel = new AbortController();
    const spent = { budgetExhausted: true };
    const rules = agentRules({ cancel: cancel.signal, episode: spent, cap: 0, fits: () => false, caller: caller(true) });
    expect(firstStop(rules, { steps: 0, lastReply: undefined, turn })).toBe('budget_spent');
    cancel.abort();
    expect(firstStop(rules, { steps: 0, lastReply: undefined, turn })).toBe('cancelled');
    const open = agentRules({ cancel: new AbortController().signal, episode: { budgetExhausted: false }, cap: 5, fits: () => true, caller: caller(false) });
    expect(firstStop(open, { steps: 0, lastReply: undefined, turn })).toBe('context');
    expect(agentRules({ cancel: cancel.signal, episode: spent, cap: 5, fits: () => true, caller: caller() }).map((r) => r.name)).not.toContain('context');
  });

  it('an orchestrator that answers on its last allowed call stops with its answer', async () => {
    const orchestrator = scriptedMock([[['create_subagent', { name: 'a', system_prompt: 'You look things up.' }]], 'final']);
    const { record, answer } = await runEpisode(task, settingsWith({ orchestrator, limits: { orchestrator_steps: 2, subagent_steps: 5 } }));
    expect(answer).toBe('final');
    expect(record.end_reason).toBe('answer');
    const capped = await runEpisode(task, settingsWith({ orchestrator: scriptedMock([[['create_subagent', { name: 'a', system_prompt: 'p' }]]]), limits: { orchestrator_steps: 2, subagent_steps: 5 } }));
    expect(capped.record.end_reason).toBe('orchestrator_steps');
    expect(capped.record.stages).toHaveLength(2);
  });
});
