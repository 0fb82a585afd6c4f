/**
 * Episode settings from the command's options: models on the endpoint, limits by preset.
 *
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import type { LanguageModel } from 'ai';
import type { EpisodeSettings } from '../runtime/config.js';
import { LIMIT_PRESETS, type LimitPreset } from '../runtime/limits.js';
import { DEFAULT_RETRY } from '../runtime/model-call.js';
import { scriptedLookupModel } from '../runtime/scripted-model.js';
import type { SubagentKind } from '../options.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import type { ToolsFor } from '../tools/tools-for.js';
import { endpointModel } from './endpoint-models.js';

/** What the settings are built from. */
export interface EndpointSettingsInput {
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
  /** Ask for the orchestrator's log-probabilities and token ids. */
  readonly logprobs?: boolean | undefined;
  /** Models by name instead of the endpoint (tests, and a caller with its own provider). */
  readonly models?: ((name: string) => LanguageModel) | undefined;
  /** The environment the API key is read from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** The run's tool providers (`--tools`, `--mcp`), already open. */
  readonly toolProviders?: readonly ToolProvider[] | undefined;
  /** Who gets the task's tools. */
  readonly toolsFor?: ToolsFor | undefined;
  /** Seconds a tool call may take. */
  readonly toolTimeout?: number | undefined;
  /** Levels of agents. */
  readonly depth?: number | undefined;
}

/** The settings of the episodes a command runs. */
export function endpointSettings(input: EndpointSettingsInput): EpisodeSettings {
  const model = input.models ?? ((name: string) => endpointModel(input.baseUrl, name, input.env));
  return {
    orchestrator: model(input.model),
    subagentModel: input.subagents === 'scripted' ? scriptedLookupModel() : model(input.subagentModel ?? input.model),
    concurrency: input.concurrency,
    maxSubagents: 100,
    limits: LIMIT_PRESETS[input.limits],
    budget: input.budget,
    onBudget: input.onBudget ?? 'fail',
    trainingStep: input.trainingStep,
    reward: {},
    retry: DEFAULT_RETRY,
    singleAgent: false,
    tracer: input.tracer,
    tokenDetails: input.logprobs === true,
    ...(input.toolProviders === undefined ? {} : { toolProviders: input.toolProviders }),
    ...(input.toolsFor === undefined ? {} : { toolsFor: input.toolsFor }),
    ...(input.toolTimeout === undefined ? {} : { toolTimeoutMs: Math.round(input.toolTimeout * 1000) }),
    ...(input.depth === undefined ? {} : { depth: input.depth }),
  };
}
