/**
 * The settings of one episode, and their defaults: `runEpisode(task, { orchestrator })` runs
 * with every other setting at its default.
 *
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import { REWARD_DEFAULTS, type BudgetMode, type RewardConfig } from '@parl/core';
import type { LanguageModel } from 'ai';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../tools/tool-executor.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import type { ToolsFor } from '../tools/tools-for.js';
import { LIMIT_PRESETS, type SwarmLimits } from './limits.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry-policy.js';
import type { SwarmEventListener } from './swarm-events.js';
import type { TokenInSettings } from './token-in-caller.js';


/** How an episode runs. */
export interface EpisodeSettings {
  /** The orchestrator's model. */
  readonly orchestrator: LanguageModel;
  /** The sub-agents' model (frozen: never trained). Use `scriptedLookupModel()` for `scripted` sub-agents. */
  readonly subagentModel: LanguageModel;
  /** Sub-agents running at once (≥ 1). */
  readonly concurrency: number;
  /** Most sub-agent definitions (`create_subagent` calls) per episode. */
  readonly maxSubagents: number;
  /** Caps on model calls. */
  readonly limits: SwarmLimits;
  /** The critical-step budget K, if any. */
  readonly budget: number | undefined;
  /** r_perf of an episode cut by the budget: `fail` (0) or `truncate` (score what finished). */
  readonly onBudget: BudgetMode;
  /** The training step: when given, the record gets the spec §2 / §3 fields. */
  readonly trainingStep: number | undefined;
  /** Reward options for the §3 fields (λ schedules, max_subagents…). */
  readonly reward: RewardConfig;
  /** Retries of provider failures. */
  readonly retry: RetryPolicy;
  /** Run as a single agent: the task's tools only, no `create_subagent` / `assign_task` (the baseline of the latency-to-target figure). */
  readonly singleAgent: boolean;
  /**
   * Ask the orchestrator's provider for each reply's log-probabilities and token ids (OpenAI's
   * `logprobs`, vLLM's `return_token_ids`); the transcript's assistant messages carry what it
   * returns. Optional: off when absent.
   */
  readonly tokenDetails?: boolean;
  /**
   * Keep what each orchestrator call's endpoint returned — prompt token ids, completion token ids
   * and log-probabilities — so that the rollout line can carry the token trajectory of spec §10.4,
   * and keep the sub-agents' transcripts. Implies {@link EpisodeSettings.tokenDetails}. Optional:
   * off when absent.
   */
  readonly tokenTrajectories?: boolean;
  /** The tracer for the episode's spans (default: the global provider's). */
  readonly tracer: Tracer | undefined;
  /** Tool providers of the run besides the task's own corpus (`--tools`, `--mcp`), listed once. Optional: none when absent. */
  readonly toolProviders?: readonly ToolProvider[];
  /** Who gets the task's tools. Optional: `both` when absent. */
  readonly toolsFor?: ToolsFor;
  /** Per-call tool timeout, ms. Optional: {@link DEFAULT_TOOL_TIMEOUT_MS} when absent. */
  readonly toolTimeoutMs?: number;
  /** Told what happens as it happens (sub-agents created, started, finished; stages closed; calls the budget refused). Optional: nobody when absent. */
  readonly onEvent?: SwarmEventListener;
  /**
   * Levels of agents (spec §10.3): 1, the orchestrator's sub-agents only; with D > 1 a sub-agent
   * at depth d < D also has `create_subagent` / `assign_task`. Optional: 1 when absent.
   */
  readonly depth?: number;
  /**
   * Cancels the episode (spec §10.6): its in-flight model and tool calls are aborted, its
   * sub-agents stop, and `runEpisode` rejects with the signal's reason (no record is made).
   * Optional: never cancelled when absent.
   */
  readonly signal?: AbortSignal;
  /**
   * Token in (spec §10.5): the orchestrator's conversation held as token ids and each of its calls
   * a completions request on them (its tokenizer, chat template and parsers, and the endpoint);
   * implies {@link EpisodeSettings.tokenTrajectories}. Sub-agents stay on chat completions.
   * Optional: chat mode when absent.
   */
  readonly tokenIn?: TokenInSettings | undefined;
}

/** What `runEpisode` takes: the orchestrator's model, and any other setting to change from its default. */
export type EpisodeOptions = Partial<Omit<EpisodeSettings, 'orchestrator'>> & { readonly orchestrator: LanguageModel };

/**
 * The defaults of every setting but the models: 8 sub-agents at once, at most 100 sub-agent
 * definitions, the `default` limits (100 orchestrator / 50 sub-agent model calls), no budget,
 * `on_budget` `fail`, no training step, the default reward, {@link DEFAULT_RETRY}, the swarm (not
 * the single agent), no token details or trajectories, the global tracer, no tools besides the task's, given to
 * both, a 60 s tool timeout, depth 1. The sub-agents' model defaults to the orchestrator's.
 */
export const EPISODE_DEFAULTS = {
  concurrency: 8,
  maxSubagents: REWARD_DEFAULTS.maxSubagents,
  limits: LIMIT_PRESETS.default,
  budget: undefined,
  onBudget: 'fail',
  trainingStep: undefined,
  reward: {},
  retry: DEFAULT_RETRY,
  singleAgent: false,
  tokenDetails: false,
  tokenTrajectories: false,
  tracer: undefined,
  toolProviders: [],
  toolsFor: 'both',
  toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
  onEvent: (): void => undefined,
  depth: 1,
} as const satisfies Omit<EpisodeSettings, 'orchestrator' | 'subagentModel'>;

/** Every setting of `options`, the missing ones at their defaults ({@link EPISODE_DEFAULTS}). */
export function episodeSettingsOf(options: EpisodeOptions): Required<EpisodeSettings> {
  const d = EPISODE_DEFAULTS;
  const orchestrator: LanguageModel = options.orchestrator;
  let subagentModel: LanguageModel = orchestrator;
  if (options.subagentModel !== undefined) subagentModel = options.subagentModel;
  return {
    orchestrator,
    subagentModel,
    concurrency: options.concurrency ?? d.concurrency,
    maxSubagents: options.maxSubagents ?? d.maxSubagents,
    limits: options.limits ?? d.limits,
    budget: options.budget,
    onBudget: options.onBudget ?? d.onBudget,
    trainingStep: options.trainingStep,
    reward: options.reward ?? d.reward,
    retry: options.retry ?? d.retry,
    singleAgent: options.singleAgent ?? d.singleAgent,
    tokenDetails: (options.tokenDetails ?? d.tokenDetails) || (options.tokenTrajectories ?? d.tokenTrajectories) || options.tokenIn !== undefined,
    tokenTrajectories: (options.tokenTrajectories ?? d.tokenTrajectories) || options.tokenIn !== undefined,
    tracer: options.tracer,
    toolProviders: options.toolProviders ?? d.toolProviders,
    toolsFor: options.toolsFor ?? d.toolsFor,
    toolTimeoutMs: options.toolTimeoutMs ?? d.toolTimeoutMs,
    onEvent: options.onEvent ?? d.onEvent,
    depth: options.depth ?? d.depth,
    signal: options.signal ?? new AbortController().signal,
    tokenIn: options.tokenIn,
  };
}
