/**
 * Episode settings from the command's options: models on the endpoint, limits by preset, the
 * reward options of core's table.
 *
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import { REWARD_DEFAULTS, type RewardConfig, type RewardOptions } from '@parl/core';
import type { LanguageModel } from 'ai';
import type { EpisodeSettings } from '../runtime/config.js';
import { LIMIT_PRESETS, type LimitPreset } from '../runtime/limits.js';
import { DEFAULT_RETRY } from '../runtime/model-call.js';
import { scriptedLookupModel } from '../runtime/scripted-model.js';
import type { SubagentKind } from '../options.js';
import { endpointModel } from './endpoint-models.js';

/** The reward options `parl swarm run` takes from core's `REWARD_OPTIONS` (its budget rows are its own: held live). */
type SwarmRewardOptions = Pick<RewardOptions, 'maxSubagents' | 'lambda1' | 'lambda2' | 'totalTrainingSteps' | 'parallelShape'>;

/** What the settings are built from. */
export interface EndpointSettingsInput extends SwarmRewardOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly subagentModel?: string | undefined;
  readonly subagents: SubagentKind;
  readonly concurrency: number;
  readonly limits: LimitPreset;
  readonly budget?: number | undefined;
  readonly onBudget?: 'fail' | 'truncate' | undefined;
  readonly trainingStep?: number | undefined;
  readonly tracer?: Tracer | undefined;
  /** Seconds one model request may take before it is abandoned and retried (default 120). */
  readonly requestTimeout?: number | undefined;
  /** Ask for the orchestrator's log-probabilities and token ids. */
  readonly logprobs?: boolean | undefined;
  /** Models by name instead of the endpoint (tests, and a caller with its own provider). */
  readonly models?: ((name: string) => LanguageModel) | undefined;
  /** The environment the API key is read from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** The settings of the episodes a command runs. */
export function endpointSettings(input: EndpointSettingsInput): EpisodeSettings {
  const model = input.models ?? ((name: string) => endpointModel(input.baseUrl, name, input.env));
  return {
    orchestrator: model(input.model),
    subagentModel: input.subagents === 'scripted' ? scriptedLookupModel() : model(input.subagentModel ?? input.model),
    concurrency: input.concurrency,
    maxSubagents: input.maxSubagents ?? REWARD_DEFAULTS.maxSubagents,
    limits: LIMIT_PRESETS[input.limits],
    budget: input.budget,
    onBudget: input.onBudget ?? 'fail',
    trainingStep: input.trainingStep,
    reward: rewardConfig(input),
    retry: input.requestTimeout === undefined ? DEFAULT_RETRY : { ...DEFAULT_RETRY, timeoutMs: input.requestTimeout * 1000 },
    singleAgent: false,
    tracer: input.tracer,
    tokenDetails: input.logprobs === true,
  };
}

/** The reward config of the episodes: the reward options given (`maxSubagents` is the settings' own field). */
function rewardConfig(input: SwarmRewardOptions): RewardConfig {
  return {
    ...(input.lambda1 === undefined ? {} : { lambda1: input.lambda1 }),
    ...(input.lambda2 === undefined ? {} : { lambda2: input.lambda2 }),
    ...(input.totalTrainingSteps === undefined ? {} : { totalTrainingSteps: input.totalTrainingSteps }),
    ...(input.parallelShape === undefined ? {} : { parallelShape: input.parallelShape }),
  };
}
