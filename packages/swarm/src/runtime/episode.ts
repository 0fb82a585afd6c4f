/**
 * One episode of the Agent Swarm (spec §10): the orchestrator's loop, its `create_subagent` /
 * `assign_task` tools and the task's own tools, sub-agents run concurrently up to `concurrency`,
 * the critical-step budget held live, the §5 record built as the episode runs, and its spans.
 *
 * @module
 */
import { labelReward, validateRecord, type EpisodeRecord } from '@parl/core';
import type { SwarmTask, TaskTool } from '../tasks/task.js';
import { MicrosecondClock } from './clock.js';
import type { EpisodeSettings } from './config.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import { LiveRecord, type SubAgentSlot } from './live-record.js';
import { callModel, modelName, toolSetOf, type ModelReply, type ModelToolCall, type ToolSpec } from './model-call.js';
import { SwarmTelemetry, type OpenSpan } from './telemetry.js';
import { scoreAnswer, unscored } from '../scoring/task-score.js';
import type { Score } from '../scoring/score.js';
import { toolArgsOf } from './tool-args.js';
import { Conversation, type ChatMessage } from './transcript.js';

/** The orchestrator's tools, named and shaped as in the report's appendix (spec §10). */
export const ORCHESTRATOR_TOOLS: readonly ToolSpec[] = [
  {
    name: 'create_subagent',
    description: 'Define a sub-agent: a frozen model with this system prompt and the task\'s tools. Use assign_task to give it work.',
    parameters: { name: 'A name for the sub-agent, unique in this episode', system_prompt: 'The sub-agent\'s system prompt' },
  },
  {
    name: 'assign_task',
    description: 'Run a sub-agent you defined on a prompt. The result is the sub-agent\'s final message.',
    parameters: { agent: 'The name of a sub-agent defined with create_subagent', prompt: 'What the sub-agent should do' },
  },
];

/** The orchestrator's system prompt (it describes the tools; it never asks for parallelism). */
export const ORCHESTRATOR_SYSTEM_PROMPT =
  'You solve the user\'s task. You can use the task\'s tools yourself, and you can define sub-agents with create_subagent ' +
  'and give them work with assign_task; each assign_task returns that sub-agent\'s final message. ' +
  'When you have the answer, reply with it and call no tool.';

/** The single agent's system prompt (the baseline without sub-agents). */
export const SINGLE_AGENT_SYSTEM_PROMPT = 'You solve the user\'s task with the task\'s tools. When you have the answer, reply with it and call no tool.';

/** Why an episode stopped. */
export type StopReason = 'answer' | 'orchestrator_steps' | 'budget';

/** The spec §10 record of an episode (a §5 record; with the §2 / §3 fields when a training step was given). */
export type SwarmRecord = EpisodeRecord & {
  readonly id: string;
  readonly task_id: string;
  readonly budget_exhausted: boolean;
  readonly wall_ms: number;
  readonly stop_reason: StopReason;
  /** Tool calls the orchestrator made. */
  readonly orchestrator_tool_calls: number;
  /** Of those, calls the SDK rejected (arguments not JSON, an unknown tool). */
  readonly malformed_tool_calls: number;
  /** How r_perf was reached (spec §10.2): `{scorer, r_perf, …details}`. */
  readonly score: Score;
  readonly [field: string]: unknown;
};

/** What an episode yields. */
export interface EpisodeResult {
  /** The record, built live. */
  readonly record: SwarmRecord;
  /** The orchestrator's transcript (OpenAI chat format). */
  readonly messages: readonly ChatMessage[];
  /** The final answer ('' when the orchestrator gave none). */
  readonly answer: string;
  /** Why the orchestrator's malformed tool calls were rejected, in order. */
  readonly malformed: readonly string[];
}

interface SubAgentOutcome {
  readonly text: string;
  readonly finished: boolean;
}

/** A per-turn queue entry: an assign_task call to run. */
interface Assignment {
  readonly call: ModelToolCall;
  readonly agent: string;
  readonly systemPrompt: string;
  readonly prompt: string;
}

class EpisodeRun {
  private readonly clock = new MicrosecondClock();
  private readonly telemetry: SwarmTelemetry;
  private readonly live = new LiveRecord();
  private readonly controller = new AbortController();
  private readonly definitions = new Map<string, string>();
  private readonly toolsByName: ReadonlyMap<string, TaskTool>;
  private readonly finishedAnswers: string[] = [];
  private budgetExhausted = false;
  private toolCalls = 0;
  private malformed: string[] = [];

  constructor(
    private readonly task: SwarmTask,
    private readonly settings: EpisodeSettings,
  ) {
    this.telemetry = new SwarmTelemetry(this.clock, settings.tracer);
    this.toolsByName = new Map(task.tools.map((t) => [t.name, t]));
  }

  /** Stop the episode: the budget is spent; running sub-agents' calls are aborted. */
  private exhaust(): void {
    this.budgetExhausted = true;
    this.controller.abort();
  }

  private fits(next: 'main' | 'new-sub' | SubAgentSlot): boolean {
    return this.settings.budget === undefined || this.live.criticalSteps(next) <= this.settings.budget;
  }

  async run(id: string): Promise<EpisodeResult> {
    const startedMs = performance.now();
    const s = this.settings;
    const system = s.singleAgent ? SINGLE_AGENT_SYSTEM_PROMPT : ORCHESTRATOR_SYSTEM_PROMPT;
    const specs: ToolSpec[] = [...(s.singleAgent ? [] : ORCHESTRATOR_TOOLS), ...this.task.tools];
    const tools = toolSetOf(specs);
    const conversation = new Conversation(system, this.task.prompt);
    const orchestratorName = s.singleAgent ? 'single_agent' : 'orchestrator';
    const root = this.telemetry.agent(orchestratorName, undefined, this.clock.now(), this.task.prompt);
    root.span.setAttribute('parl.task.id', this.task.id);
    let answer = '';
    let stop: StopReason = 'orchestrator_steps';
    const texts: string[] = [];
    try {
      while (this.live.mainSteps < s.limits.orchestrator_steps) {
        if (!this.fits('main')) {
          this.budgetExhausted = true;
          stop = 'budget';
          break;
        }
        this.live.openTurn();
        const chat = this.telemetry.chat(modelName(s.orchestrator), root, this.clock.now());
        let reply: ModelReply;
        try {
          reply = await callModel({ model: s.orchestrator, system, messages: conversation.messages, tools, signal: this.controller.signal, retry: s.retry, tokenDetails: s.tokenDetails === true });
        } catch (err) {
          this.telemetry.end(chat, this.clock.now(), { type: err instanceof SwarmProviderError ? 'provider' : 'error', message: String(err) });
          throw err;
        }
        this.telemetry.end(chat, this.clock.now(), undefined, usageAttributes(reply));
        conversation.assistant(reply);
        this.toolCalls += reply.toolCalls.length;
        for (const c of reply.toolCalls) if (c.invalid !== undefined) this.malformed.push(c.invalid);
        if (reply.text !== '') texts.push(reply.text);
        if (reply.toolCalls.length === 0) {
          answer = reply.text;
          stop = 'answer';
          break;
        }
        conversation.toolResults(await this.turnTools(reply.toolCalls, root));
        if (this.budgetExhausted) {
          stop = 'budget';
          break;
        }
      }
    } catch (err) {
      this.controller.abort();
      this.telemetry.end(root, this.clock.now(), { type: err instanceof SwarmProviderError ? 'provider' : 'error', message: String(err) });
      throw err;
    }
    // The final answer is scored once the episode is over: a judge's calls are no steps of it.
    let score: Score;
    try {
      score = stop === 'answer'
        ? await scoreAnswer(this.task, answer)
        : stop === 'budget' && s.onBudget === 'truncate'
          ? await scoreAnswer(this.task, [...texts, ...this.finishedAnswers].join('\n'))
          : unscored(this.task, stop);
    } catch (err) {
      this.telemetry.end(root, this.clock.now(), { type: 'score', message: String(err) });
      throw err;
    }
    const record = this.record(id, score, stop, performance.now() - startedMs);
    this.telemetry.end(root, this.clock.now(), stop === 'answer' ? undefined : { type: stop, message: `the episode stopped: ${stop}` });
    return { record, messages: conversation.transcript, answer, malformed: this.malformed };
  }

  private record(id: string, score: Score, stop: StopReason, wallMs: number): SwarmRecord {
    const stages = this.live.stages();
    const counts = validateRecord({ stages });
    const base = {
      id,
      task_id: this.task.id,
      ...(this.settings.trainingStep === undefined ? {} : { training_step: this.settings.trainingStep }),
      stages,
      num_subagents: counts.numSubagents,
      assigned_subtasks: counts.assigned,
      completed_subtasks: counts.completed,
      r_perf: score.r_perf,
      score,
      ...(this.task.metadata === undefined ? {} : { metadata: this.task.metadata }),
      budget_exhausted: this.budgetExhausted,
      stop_reason: stop,
      orchestrator_tool_calls: this.toolCalls,
      malformed_tool_calls: this.malformed.length,
      wall_ms: Math.round(wallMs * 1000) / 1000,
    };
    if (this.settings.trainingStep === undefined) return base;
    return labelReward(base, { ...this.settings.reward, maxSubagents: this.settings.maxSubagents }) as unknown as SwarmRecord;
  }

  /** Run one reply's tool calls: definitions and the task's tools in order, then the assign_task calls concurrently. */
  private async turnTools(calls: readonly ModelToolCall[], root: OpenSpan): Promise<{ id: string; name: string; text: string }[]> {
    const results = new Map<string, string>();
    const assignments: Assignment[] = [];
    const assignSpec = ORCHESTRATOR_TOOLS[1] as ToolSpec;
    for (const call of calls) {
      if (call.name === 'assign_task' && !this.settings.singleAgent && call.invalid === undefined) continue;
      results.set(call.id, this.ownTool(call, root));
    }
    for (const call of calls) {
      if (results.has(call.id)) continue;
      const args = toolArgsOf(call, assignSpec);
      if (!args.ok) {
        results.set(call.id, this.instantTool(call, root, args.error));
        continue;
      }
      const agent = args.args['agent'] as string;
      const systemPrompt = this.definitions.get(agent);
      if (systemPrompt === undefined) {
        const known = [...this.definitions.keys()];
        results.set(call.id, this.instantTool(call, root, `error: no sub-agent named ${JSON.stringify(agent)}; ${known.length === 0 ? 'define one with create_subagent first' : `defined: ${known.join(', ')}`}`));
        continue;
      }
      assignments.push({ call, agent, systemPrompt, prompt: args.args['prompt'] as string });
    }
    await this.runAssignments(assignments, root, results);
    return calls.map((c) => ({ id: c.id, name: c.name, text: results.get(c.id) ?? '' }));
  }

  /** A tool call that is no sub-agent run: create_subagent, a task tool, or an error. */
  private ownTool(call: ModelToolCall, root: OpenSpan): string {
    if (call.invalid !== undefined) return this.instantTool(call, root, `error: ${call.invalid}`);
    if (call.name === 'create_subagent' && !this.settings.singleAgent) {
      const args = toolArgsOf(call, ORCHESTRATOR_TOOLS[0] as ToolSpec);
      if (!args.ok) return this.instantTool(call, root, args.error);
      const name = args.args['name'] as string;
      if (name.trim() === '') return this.instantTool(call, root, 'error: create_subagent needs a non-empty "name"');
      if (this.definitions.has(name)) return this.instantTool(call, root, `error: a sub-agent named ${JSON.stringify(name)} is already defined`);
      if (this.definitions.size >= this.settings.maxSubagents) {
        return this.instantTool(call, root, `error: at most ${this.settings.maxSubagents} sub-agents can be defined in an episode`);
      }
      this.definitions.set(name, args.args['system_prompt'] as string);
      return this.instantTool(call, root, `sub-agent ${JSON.stringify(name)} defined`);
    }
    const tool = this.toolsByName.get(call.name);
    if (tool === undefined) {
      return this.instantTool(call, root, `error: no tool named ${JSON.stringify(call.name)}`);
    }
    const args = toolArgsOf(call, tool);
    return this.instantTool(call, root, args.ok ? tool.run(args.args) : args.error);
  }

  /** Record an `execute_tool` span for a call whose result is known at once. */
  private instantTool(call: ModelToolCall, parent: OpenSpan, result: string): string {
    const span = this.telemetry.tool(call.name, call.id, inputText(call), parent, this.clock.now());
    this.telemetry.end(span, this.clock.now(), result.startsWith('error: ') ? { type: 'tool_error', message: result } : undefined, { 'gen_ai.tool.call.result': result });
    return result;
  }

  /** Run a turn's assign_task calls, at most `concurrency` at once, the rest as earlier ones end. */
  private async runAssignments(assignments: readonly Assignment[], root: OpenSpan, results: Map<string, string>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < assignments.length) {
        const a = assignments[next++] as Assignment;
        if (this.budgetExhausted || !this.fits('new-sub')) {
          if (!this.budgetExhausted) this.exhaust();
          results.set(a.call.id, this.instantTool(a.call, root, 'error: not run: the critical-step budget is spent'));
          continue;
        }
        const toolSpan = this.telemetry.tool('assign_task', a.call.id, inputText(a.call), root, this.clock.now());
        const outcome = await this.subAgent(a, toolSpan);
        const text = outcome.finished ? outcome.text : `error: sub-agent ${JSON.stringify(a.agent)} did not finish (${outcome.text})`;
        if (outcome.finished) this.finishedAnswers.push(outcome.text);
        this.telemetry.end(toolSpan, this.clock.now(), outcome.finished ? undefined : { type: 'subagent_unfinished', message: text }, { 'gen_ai.tool.call.result': text });
        results.set(a.call.id, text);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, assignments.length) }, worker));
  }

  /** One sub-agent run: its model calls and tool calls until it answers, hits its cap, fails or is stopped. */
  private async subAgent(a: Assignment, parent: OpenSpan): Promise<SubAgentOutcome> {
    const s = this.settings;
    const startAt = this.clock.now();
    const slot = this.live.startSubAgent();
    const span = this.telemetry.agent(a.agent, parent, startAt, a.prompt);
    const tools = toolSetOf(this.task.tools);
    const conversation = new Conversation(a.systemPrompt, a.prompt);
    const end = (outcome: SubAgentOutcome, error?: string): SubAgentOutcome => {
      const at = this.clock.now();
      this.live.endSubAgent(slot, outcome.finished);
      this.telemetry.end(span, at, error === undefined ? undefined : { type: error, message: outcome.text }, { 'parl.subagent.steps': slot.steps });
      return outcome;
    };
    for (;;) {
      if (this.budgetExhausted) return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
      if (slot.steps >= s.limits.subagent_steps) return end({ text: `stopped at its cap of ${s.limits.subagent_steps} model calls`, finished: false }, 'step_cap');
      if (!this.fits(slot)) {
        this.exhaust();
        return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
      }
      slot.steps++;
      const chat = this.telemetry.chat(modelName(s.subagentModel), span, this.clock.now());
      let reply: ModelReply;
      try {
        reply = await callModel({ model: s.subagentModel, system: a.systemPrompt, messages: conversation.messages, tools, signal: this.controller.signal, retry: s.retry });
      } catch (err) {
        const stopped = err instanceof EpisodeStopped;
        this.telemetry.end(chat, this.clock.now(), { type: stopped ? 'aborted' : 'provider', message: String(err) });
        if (stopped) return end({ text: 'stopped: the critical-step budget is spent', finished: false }, 'budget');
        if (err instanceof SwarmProviderError) return end({ text: `its model failed: ${err.message}`, finished: false }, 'provider');
        throw err;
      }
      this.telemetry.end(chat, this.clock.now(), undefined, usageAttributes(reply));
      conversation.assistant(reply);
      if (reply.toolCalls.length === 0) return end({ text: reply.text, finished: true });
      const results = reply.toolCalls.map((call) => {
        const tool = this.toolsByName.get(call.name);
        let text: string;
        if (call.invalid !== undefined) text = `error: ${call.invalid}`;
        else if (tool === undefined) text = `error: no tool named ${JSON.stringify(call.name)}`;
        else {
          const args = toolArgsOf(call, tool);
          text = args.ok ? tool.run(args.args) : args.error;
        }
        return { id: call.id, name: call.name, text: this.instantTool(call, span, text) };
      });
      conversation.toolResults(results);
    }
  }
}

function inputText(call: ModelToolCall): string {
  return typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
}

function usageAttributes(reply: ModelReply): Record<string, number> {
  return {
    ...(reply.inputTokens === undefined ? {} : { 'gen_ai.usage.input_tokens': reply.inputTokens }),
    ...(reply.outputTokens === undefined ? {} : { 'gen_ai.usage.output_tokens': reply.outputTokens }),
    'parl.model.attempts': reply.attempts,
  };
}

/**
 * Run one episode of `task`.
 *
 * @param task - the task (see the suites)
 * @param settings - models, limits, budget… (see {@link EpisodeSettings})
 * @param id - the record's `id` (default: the task id)
 * @returns the record, built live, the orchestrator's transcript and its final answer
 * @throws {@link SwarmProviderError} when the orchestrator's model fails after its retries;
 *   {@link SwarmScoreError} when the task's scorer throws or gives no r_perf in [0, 1]
 */
export function runEpisode(task: SwarmTask, settings: EpisodeSettings, id: string = task.id): Promise<EpisodeResult> {
  return new EpisodeRun(task, settings).run(id);
}
