/**
 * `SwarmAgent`: the K2.5 orchestrator as an AI SDK `Agent`, usable wherever a `ToolLoopAgent` is —
 * dynamic sub-agents (`create_subagent` / `assign_task`), a concurrency bound, a critical-step
 * budget held live, and the exact spec §5 record and §3 reward of each run on the result.
 *
 * `generate()` and `stream()` run one episode (`runEpisode`) behind a language model of the AI
 * SDK's own interface, so their results are the SDK's own `GenerateTextResult` and
 * `StreamTextResult`: the orchestrator's text is the result's text (each model call's text
 * streamed as it comes), and the swarm's typed events ({@link SwarmEvent}) are in `fullStream` as
 * `raw` parts and, typed, in the result's `swarmEvents`.
 *
 * @module
 */
import type { ScoreValue } from '../scoring/task-score.js';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import {
  generateText,
  streamText,
  type Agent,
  type AgentCallParameters,
  type AgentStreamParameters,
  type GenerateTextResult,
  type LanguageModel,
  type ModelMessage,
  type StreamTextResult,
} from 'ai';
import type { EpisodeOptions } from '../runtime/config.js';
import { runEpisode } from '../runtime/episode.js';
import { ProgramModel, UNKNOWN_USAGE } from '../runtime/program-model.js';
import type { SwarmEvent } from '../runtime/swarm-events.js';
import type { EpisodeResult, SwarmRecord } from '../runtime/swarm-record.js';
import type { SwarmTask, TaskTool } from '../tasks/task.js';
import { MCP_OPTIONS, type McpSettings } from '../tools/run-tool-options.js';
import { resolveOptions } from '@parl/core';
import { openRunTools, type RunTools } from '../tools/run-tools.js';
import type { ToolProvider } from '../tools/tool-provider.js';

/** `settings` without the {@link MCP_OPTIONS} rows' keys (the agent starts those servers itself). */
function withoutMcpSettings<T extends object>(settings: T): Omit<T, keyof McpSettings> {
  const rest = { ...settings } as Record<string, unknown>;
  for (const key of Object.keys(MCP_OPTIONS)) delete rest[key];
  return rest as Omit<T, keyof McpSettings>;
}

/** The AI SDK's default runtime context of an agent (its `Context`, not re-exported by `ai`). */
type Context = Agent<never, {}> extends Agent<never, {}, infer C, never> ? C : never;

/**
 * How a `SwarmAgent` runs: the episode settings, with the models named as an AI SDK app names
 * them, and the MCP servers it starts on its first run (closed by {@link SwarmAgent.close}).
 */
export type SwarmAgentSettings = Omit<EpisodeOptions, 'orchestrator' | 'onEvent'> & McpSettings & {
  /** The orchestrator's model. */
  readonly model: LanguageModel;
  /** The frozen sub-agents' model (default: the orchestrator's). */
  readonly subagentModel?: LanguageModel;
  /**
   * String-argument tools every agent may call (the sub-agents, and the orchestrator as its direct
   * fallback): plain objects, not the AI SDK's `tool()` — a `name`, a `description` for the model,
   * `parameters` (argument name → description; every argument a required string) and `run(args)`
   * returning the text the model reads (a throw reaches the model as `error: …`, counted in
   * `tool_errors`). AI SDK tools and MCP servers come through `toolProviders` instead.
   *
   * @example
   * ```ts
   * const capitals = new Map([['France', 'Paris'], ['Japan', 'Tokyo']]);
   * const tools = [
   *   {
   *     name: 'lookup_capital',
   *     description: 'The capital city of a country.',
   *     parameters: { country: 'the country, in English' },
   *     run: ({ country }) => capitals.get(country ?? '') ?? `no capital known for ${country}`,
   *   },
   * ];
   * const model = scriptedOrchestrator('parallel'); // or endpointModel(baseUrl, 'my-model'), any AI SDK model
   * const agent = new SwarmAgent({ model, tools });
   * tools[0]?.run({ country: 'Japan' }); // "Tokyo"
   * ```
   */
  readonly tools?: readonly TaskTool[];
  /** r_perf of an answer in [0, 1] (default 0: the reward is then the instantiation and finish terms only). */
  readonly score?: (answer: string, prompt: string) => ScoreValue | Promise<ScoreValue>;
  /** The agent's id (the record's `task_id`; default `swarm-agent`). */
  readonly id?: string;
};

/** The §3 reward of a run: the fields of the record that make it up. */
export interface SwarmReward {
  readonly total_reward: number;
  readonly r_parallel: number;
  readonly r_finish: number;
  readonly r_perf: number;
}

/** What `SwarmAgent`'s `generate()` returns beside the AI SDK's result (and `stream()` in its `swarm` promise). */
export interface SwarmAgentResult {
  /** The episode's spec §5 record (with the §2 / §3 fields: `trainingStep` defaults to 0). */
  readonly record: SwarmRecord;
  /** Its reward terms. */
  readonly reward: SwarmReward;
  /** The whole episode: the orchestrator's transcript and answer as well. */
  readonly episode: EpisodeResult;
}

/** A queue of events that one reader takes as an async iterable. */
class EventQueue implements AsyncIterable<SwarmEvent> {
  private readonly items: SwarmEvent[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  push(event: SwarmEvent): void {
    this.items.push(event);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SwarmEvent> {
    for (;;) {
      const next = this.items.shift();
      if (next !== undefined) yield next;
      else if (this.ended) return;
      else await new Promise<void>((r) => (this.wake = r));
    }
  }
}

/** The user's text of a call: a string prompt, or the last user message's text parts. */
function promptText(prompt: string | readonly ModelMessage[] | undefined, messages: readonly ModelMessage[] | undefined): string {
  if (typeof prompt === 'string') return prompt;
  const list = prompt ?? messages ?? [];
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i];
    if (m?.role !== 'user') continue;
    return typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  }
  return '';
}

function rewardOf(record: SwarmRecord): SwarmReward {
  return { total_reward: record['total_reward'] as number, r_parallel: record['r_parallel'] as number, r_finish: record['r_finish'] as number, r_perf: record['r_perf'] as number };
}

/**
 * The K2.5 orchestrator as an AI SDK `Agent`.
 *
 * @example
 * ```ts
 * const [task] = generateSuite('wide', { tasks: 1, seed: 1 });
 * const agent = new SwarmAgent({ model: scriptedOrchestrator('parallel'), subagentModel: scriptedLookupModel(), tools: task.tools });
 * const result = await agent.stream({ prompt: task.prompt });
 * for await (const event of result.swarmEvents) console.log(event.type);
 * console.log(await result.text, (await result.swarm).record.critical_steps);
 * ```
 */
export class SwarmAgent implements Agent<never, {}> {
  readonly version = 'agent-v1' as const;
  readonly id: string;
  /** No tools in the AI SDK's loop: the swarm runs its own (the orchestrator's, the task's). */
  readonly tools = {};
  private runs = 0;
  private mcpTools: Promise<RunTools> | undefined;

  /** @param settings - the models, tools and episode settings (see {@link SwarmAgentSettings}) */
  constructor(private readonly settings: SwarmAgentSettings) {
    this.id = settings.id ?? 'swarm-agent';
  }

  /** The MCP servers of the settings, started (and their tools listed) once, on the first run. */
  private async mcpProviders(): Promise<readonly ToolProvider[]> {
    const { mcp, toolTimeoutMs } = this.settings;
    if (mcp === undefined || mcp.length === 0) return [];
    // The settings go through MCP_OPTIONS' parsers, as parl swarm run's flags do (lists as a
    // repeated flag's texts, so that an error shows what the row shows: never a header's value).
    const raw = Object.fromEntries(Object.keys(MCP_OPTIONS).map((key) => {
      const value = this.settings[key as keyof McpSettings];
      return [key, Array.isArray(value) ? value.join('\n') : value];
    }));
    const checked = resolveOptions(MCP_OPTIONS, raw, 'library');
    this.mcpTools ??= openRunTools({ ...checked, flags: { tools: 'tools', mcp: 'mcp' }, ...(toolTimeoutMs === undefined ? {} : { startTimeoutMs: toolTimeoutMs }) });
    try {
      return (await this.mcpTools).providers;
    } catch (err) {
      this.mcpTools = undefined;
      throw err;
    }
  }

  /** Stop the MCP servers this agent started (a later run starts them again). */
  async close(): Promise<void> {
    const tools = this.mcpTools;
    this.mcpTools = undefined;
    await (await tools?.catch(() => undefined))?.close();
  }

  /**
   * The episode of one call, run with `onEvent` as its listener; the call's abort signal (the AI
   * SDK's `abortSignal`, with the settings' `signal`) cancels it mid-run (spec §10.6).
   */
  private async episode(prompt: string, onEvent: (e: SwarmEvent) => void, callSignal: AbortSignal | undefined): Promise<EpisodeResult> {
    const { model, subagentModel, tools, score, id: _id, signal: settingsSignal, ...episodeAndMcp } = this.settings;
    const rest = withoutMcpSettings(episodeAndMcp);
    const task: SwarmTask = { id: this.id, kind: 'wide', prompt, tools: tools ?? [], score: (answer) => (score === undefined ? 0 : score(answer, prompt)) };
    const signals = [callSignal, settingsSignal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    signal?.throwIfAborted();
    const mcpProviders = await this.mcpProviders();
    const toolProviders = [...(rest.toolProviders ?? []), ...mcpProviders];
    return runEpisode(
      task,
      { trainingStep: 0, ...rest, toolProviders, orchestrator: model, ...(subagentModel === undefined ? {} : { subagentModel }), onEvent, ...(signal === undefined ? {} : { signal }) },
      `${this.id}/run-${this.runs++}`,
    );
  }

  /** Run the swarm on the prompt; the result is the AI SDK's, with the record, reward and episode added. */
  async generate(options: AgentCallParameters<never, {}>): Promise<GenerateTextResult<{}, Context, never> & SwarmAgentResult> {
    const prompt = promptText(options.prompt, options.messages);
    let episode: EpisodeResult | undefined;
    const model = new ProgramModel('swarm', {
      usage: 'unknown',
      generate: async (call) => {
        episode = await this.episode(prompt, () => undefined, call.abortSignal);
        return [{ type: 'text', text: episode.answer }];
      },
    });
    const result = await generateText({ model, prompt, ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }) });
    const ran = episode as EpisodeResult;
    // The SDK's own result object; its type parameters are those of a text call without tools or output schema.
    return Object.assign(result, { record: ran.record, reward: rewardOf(ran.record), episode: ran }) as unknown as GenerateTextResult<{}, Context, never> & SwarmAgentResult;
  }

  /**
   * Run the swarm on the prompt, streaming: the orchestrator's text as it comes, and the swarm's
   * events — in `fullStream` as `raw` parts, and typed in `swarmEvents` (one reader).
   */
  async stream(options: AgentStreamParameters<never, {}>): Promise<StreamTextResult<{}, Context, never> & { readonly swarmEvents: AsyncIterable<SwarmEvent>; readonly swarm: Promise<SwarmAgentResult> }> {
    const prompt = promptText(options.prompt, options.messages);
    const events = new EventQueue();
    let settle: { resolve: (r: SwarmAgentResult) => void; reject: (e: unknown) => void } | undefined;
    const swarm = new Promise<SwarmAgentResult>((resolve, reject) => (settle = { resolve, reject }));
    swarm.catch(() => undefined);
    const model = new ProgramModel('swarm', {
      usage: 'unknown',
      stream: (call) => {
        let textId = 0;
        return new ReadableStream<LanguageModelV3StreamPart>({
          start: (controller) => {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            const onEvent = (event: SwarmEvent): void => {
              events.push(event);
              controller.enqueue({ type: 'raw', rawValue: event });
              if (event.type === 'orchestrator-text') {
                const id = `text-${textId++}`;
                controller.enqueue({ type: 'text-start', id });
                controller.enqueue({ type: 'text-delta', id, delta: textId > 1 ? `\n${event.text}` : event.text });
                controller.enqueue({ type: 'text-end', id });
              }
            };
            this.episode(prompt, onEvent, call.abortSignal).then(
              (episode) => {
                controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: UNKNOWN_USAGE });
                controller.close();
                events.end();
                settle?.resolve({ record: episode.record, reward: rewardOf(episode.record), episode });
              },
              (err: unknown) => {
                controller.error(err);
                events.end();
                settle?.reject(err);
              },
            );
          },
        });
      },
    });
    const result = streamText({
      model,
      prompt,
      includeRawChunks: true,
      ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      ...(options.experimental_transform === undefined ? {} : { experimental_transform: options.experimental_transform }),
    });
    // The SDK's own result object; its type parameters are those of a text call without tools or output schema.
    return Object.assign(result, { swarmEvents: events as AsyncIterable<SwarmEvent>, swarm }) as unknown as StreamTextResult<{}, Context, never> & {
      readonly swarmEvents: AsyncIterable<SwarmEvent>;
      readonly swarm: Promise<SwarmAgentResult>;
    };
  }
}
