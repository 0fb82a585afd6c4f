/**
 * Models by name: `scripted:<policy>` orchestrators and the `scripted:lookup` sub-agent program
 * (no endpoint), or a chat model on an OpenAI-compatible endpoint (vLLM, SGLang, Ollama, LM
 * Studio, llama.cpp's server) through `@ai-sdk/openai-compatible`. API keys come from the
 * environment only: the orchestrator's endpoint reads `PARL_API_KEY`, else `OPENAI_API_KEY`; a
 * separate sub-agent endpoint (`--subagent-base-url`) reads `PARL_SUBAGENT_API_KEY` only, so the
 * orchestrator's key never goes to another server. Local servers need none.
 *
 * @module
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { boundedAnswerFetch } from '../http/bounded-answers.js';
import { ParlInputError } from '@parl/core';
import type { LanguageModel } from 'ai';
import { scriptedLookupModel } from '../runtime/scripted-model.js';
import { SCRIPTED_LOOKUP_NAME, SCRIPTED_ORCHESTRATOR_NAMES, SCRIPTED_POLICIES, SCRIPTED_PREFIX, type ScriptedPolicy } from '../runtime/scripted-names.js';
import { scriptedOrchestrator } from '../runtime/scripted-orchestrator.js';

/** The environment variables read for the orchestrator's endpoint's API key, in order. */
export const API_KEY_VARIABLES = ['PARL_API_KEY', 'OPENAI_API_KEY'] as const;

/** The environment variable read for a separate sub-agent endpoint's API key. */
export const SUBAGENT_API_KEY_VARIABLE = 'PARL_SUBAGENT_API_KEY';

/** A chat model `name` on the endpoint at `baseUrl` (e.g. `http://127.0.0.1:8000/v1`), keyed from `keyVariables`. */
export function endpointModel(
  baseUrl: string,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  keyVariables: readonly string[] = API_KEY_VARIABLES,
): LanguageModel {
  const apiKey = keyVariables.map((v) => env[v]).find((v) => v !== undefined && v !== '');
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: baseUrl, fetch: boundedAnswerFetch(), ...(apiKey === undefined ? {} : { apiKey }) });
  return provider.chatModel(name);
}

/**
 * A model by name for one seat: a scripted one (`scripted:<policy>` for the orchestrator,
 * `scripted:lookup` for sub-agents), else `name` on `baseUrl`.
 *
 * @param seat - whose model it is, for errors: `--model` or `--subagent-model`
 * @throws {@link @parl/core!ParlInputError} for an unknown scripted name, or a non-scripted name without an endpoint
 */
export function namedModel(
  seat: '--model' | '--subagent-model',
  name: string,
  endpoint: { readonly baseUrl: string | undefined; readonly baseUrlFlag: string; readonly env: NodeJS.ProcessEnv; readonly keyVariables: readonly string[] },
): LanguageModel {
  if (name.startsWith(SCRIPTED_PREFIX)) {
    const policy = name.slice(SCRIPTED_PREFIX.length);
    if (seat === '--subagent-model' && name === SCRIPTED_LOOKUP_NAME) return scriptedLookupModel();
    if (seat === '--model' && (SCRIPTED_POLICIES as readonly string[]).includes(policy)) return scriptedOrchestrator(policy as ScriptedPolicy);
    const known = seat === '--model' ? SCRIPTED_ORCHESTRATOR_NAMES : [SCRIPTED_LOOKUP_NAME];
    throw new ParlInputError(seat, name, `one of ${known.join(', ')}, or a model name on the endpoint`);
  }
  if (endpoint.baseUrl === undefined) {
    throw new ParlInputError(endpoint.baseUrlFlag, undefined, `the OpenAI-compatible endpoint that serves ${seat} ${name} (or a scripted model: ${SCRIPTED_ORCHESTRATOR_NAMES.join(', ')})`);
  }
  return endpointModel(endpoint.baseUrl, name, endpoint.env, endpoint.keyVariables);
}
