/**
 * Episode settings from the command's options: models by name (scripted, or on the endpoints,
 * whose URL templates are expanded for the rollout), limits by preset, the reward options of core's table.
 *
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import { ParlInputError, REWARD_DEFAULTS, type RewardConfig, type RewardOptions } from '@parl/core';
import type { LanguageModel } from 'ai';
import type { EpisodeSettings } from '../runtime/config.js';
import { LIMIT_PRESETS, type LimitPreset } from '../runtime/limits.js';
import { DEFAULT_RETRY, type RetryPolicy } from '../runtime/model-call.js';
import { scriptedLookupModel } from '../runtime/scripted-model.js';
import { isScriptedName } from '../runtime/scripted-names.js';
import type { SubagentKind } from '../options.js';
import { API_KEY_VARIABLES, namedModel, SUBAGENT_API_KEY_VARIABLE } from './endpoint-models.js';
import { expandUrl, isUrlTemplate, type RolloutRef } from '../rollouts/url-template.js';
import type { TokenInSettings } from '../runtime/token-in-caller.js';
import type { TokenInModel } from '../tokens/token-in-model.js';

/** The reward options `parl swarm run` takes from core's `REWARD_OPTIONS` (its budget rows are its own: held live). */
type SwarmRewardOptions = Pick<RewardOptions, 'maxSubagents' | 'lambda1' | 'lambda2' | 'totalTrainingSteps' | 'parallelShape'>;
import type { ToolProvider } from '../tools/tool-provider.js';
import type { ToolsFor } from '../tools/tools-for.js';

/** What the settings are built from. */
export interface EndpointSettingsInput extends SwarmRewardOptions {
  /** The orchestrator's endpoint (a template with `{rollout_id}`… is expanded for the rollout); not needed for scripted models. */
  readonly baseUrl?: string | undefined;
  /** The sub-agents' own endpoint (default: the orchestrator's), keyed from `PARL_SUBAGENT_API_KEY`. */
  readonly subagentBaseUrl?: string | undefined;
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
  /** Assemble the orchestrator's token trajectory (spec §10.4); implies `logprobs`. */
  readonly tokenTrajectories?: boolean | undefined;
  /** Models by name instead of the endpoint (tests, and a caller with its own provider); scripted names stay scripted. */
  readonly models?: ((name: string) => LanguageModel) | undefined;
  /** The environment the API keys are read from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** The run's tool providers (`--tools`, `--mcp`), already open. */
  readonly toolProviders?: readonly ToolProvider[] | undefined;
  /** Who gets the task's tools. */
  readonly toolsFor?: ToolsFor | undefined;
  /** Seconds a tool call may take. */
  readonly toolTimeout?: number | undefined;
  /** Levels of agents. */
  readonly depth?: number | undefined;
  /** With `--token-in`: the orchestrator's tokenizer, template and parsers, loaded before any episode; its calls go to the `/completions` of `baseUrl`. */
  readonly tokenInModel?: TokenInModel | undefined;
}

/** The URL of one endpoint for this rollout: a template is expanded, and needs a rollout. */
function urlFor(template: string | undefined, flag: string, rollout: RolloutRef | undefined): string | undefined {
  if (template === undefined || !isUrlTemplate(template)) return template;
  if (rollout === undefined) throw new ParlInputError(flag, template, 'a URL without placeholders here (this run has no rollouts to expand them for)');
  return expandUrl(template, rollout);
}

/**
 * The settings of the episodes a command runs; with `rollout`, those of that rollout (its
 * endpoints' templates expanded).
 *
 * @throws {@link @parl/core!ParlInputError} for a model that needs an endpoint none was given for, or an unknown scripted name
 */
export function endpointSettings(input: EndpointSettingsInput, rollout?: RolloutRef): EpisodeSettings {
  const env = input.env ?? process.env;
  const baseUrl = urlFor(input.baseUrl, '--base-url', rollout);
  const ownSubagentEndpoint = input.subagentBaseUrl !== undefined;
  const subagentUrl = ownSubagentEndpoint ? urlFor(input.subagentBaseUrl, '--subagent-base-url', rollout) : baseUrl;
  const byName = (seat: '--model' | '--subagent-model', name: string, url: string | undefined, own: boolean): LanguageModel =>
    input.models !== undefined && !isScriptedName(name)
      ? input.models(name)
      : namedModel(seat, name, {
          baseUrl: url,
          baseUrlFlag: own ? '--subagent-base-url' : '--base-url',
          env,
          keyVariables: own ? [SUBAGENT_API_KEY_VARIABLE] : API_KEY_VARIABLES,
        });
  // The orchestrator's first: a missing --base-url is named for the model that needs it first.
  const orchestrator = byName('--model', input.model, baseUrl, false);
  const subagentModel =
    input.subagents === 'scripted'
      ? scriptedLookupModel()
      : input.subagentModel !== undefined
        ? byName('--subagent-model', input.subagentModel, subagentUrl, ownSubagentEndpoint)
        : isScriptedName(input.model)
          ? scriptedLookupModel()
          : byName('--subagent-model', input.model, subagentUrl, ownSubagentEndpoint);
  const tokenIn = tokenInSettings(input, baseUrl, env);
  const trajectories = input.tokenTrajectories === true || tokenIn !== undefined;
  return {
    orchestrator,
    subagentModel,
    concurrency: input.concurrency,
    maxSubagents: input.maxSubagents ?? REWARD_DEFAULTS.maxSubagents,
    limits: LIMIT_PRESETS[input.limits],
    budget: input.budget,
    onBudget: input.onBudget ?? 'fail',
    trainingStep: input.trainingStep,
    reward: rewardConfig(input),
    retry: requestRetry(input.requestTimeout),
    singleAgent: false,
    tracer: input.tracer,
    tokenDetails: input.logprobs === true || trajectories,
    ...(trajectories ? { tokenTrajectories: true } : {}),
    ...(input.toolProviders === undefined ? {} : { toolProviders: input.toolProviders }),
    ...(input.toolsFor === undefined ? {} : { toolsFor: input.toolsFor }),
    ...(input.toolTimeout === undefined ? {} : { toolTimeoutMs: Math.round(input.toolTimeout * 1000) }),
    ...(input.depth === undefined ? {} : { depth: input.depth }),
    ...(tokenIn === undefined ? {} : { tokenIn }),
  };
}

/**
 * Token in's settings: the loaded model and the completions endpoint of `--base-url` (keyed as
 * the orchestrator's endpoint is).
 *
 * @throws {@link @parl/core!ParlInputError} for a scripted model or no endpoint: token in calls a completions endpoint
 */
function tokenInSettings(input: EndpointSettingsInput, baseUrl: string | undefined, env: NodeJS.ProcessEnv): TokenInSettings | undefined {
  if (input.tokenInModel === undefined) return undefined;
  if (isScriptedName(input.model)) throw new ParlInputError('--model', input.model, 'a model on a completions endpoint (--token-in sends token ids to --base-url\'s /completions; scripted models take no tokens)');
  if (baseUrl === undefined) throw new ParlInputError('--base-url', undefined, `the completions endpoint (vLLM, SGLang) that serves --model ${input.model} with --token-in`);
  const apiKey = API_KEY_VARIABLES.map((v) => env[v]).find((v) => v !== undefined && v !== '');
  return { model: input.tokenInModel, endpoint: { baseUrl, model: input.model, ...(apiKey === undefined ? {} : { apiKey }) } };
}

/** The retry policy of a run's provider calls (the policy's and the judge's): the default attempts, each at most `requestTimeout` seconds (`--request-timeout`). */
export function requestRetry(requestTimeout: number | undefined): RetryPolicy {
  return requestTimeout === undefined ? DEFAULT_RETRY : { ...DEFAULT_RETRY, timeoutMs: requestTimeout * 1000 };
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
