/**
 * The `judge` scorer's LLM on an OpenAI-compatible endpoint (`--judge-base-url`, else the run's
 * `--base-url`; `--judge-model`), its API key from `PARL_JUDGE_API_KEY` only (a judge is often
 * another provider than the policy's). Each call goes through the runtime's provider call, with
 * the same bounded retries, backoff and per-attempt timeout as any model call; none is a step of
 * an episode.
 *
 * @module
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { boundedAnswerFetch } from '../http/bounded-answers.js';
import type { LanguageModel } from 'ai';
import { agentToolsOf } from '../runtime/agent-tools.js';
import { chatModelCaller, DEFAULT_RETRY, type RetryPolicy } from '../runtime/model-call.js';
import { Conversation } from '../runtime/transcript.js';
import type { JudgeClient } from '../scoring/judge-client.js';

/** The environment variable the judge's API key is read from. */
export const JUDGE_API_KEY_VARIABLE = 'PARL_JUDGE_API_KEY';

/** The judge's system prompt (the grading instructions are in the user message, as simple-evals sends them). */
const JUDGE_SYSTEM = 'You are a strict grader. Reply in exactly the format you are asked for.';

/** A judge on `model` (any AI SDK model), with `retry` for its provider failures. */
export function judgeOnModel(model: LanguageModel, retry: RetryPolicy = DEFAULT_RETRY): JudgeClient {
  const caller = chatModelCaller(model, { retry });
  const { provider, modelId } = caller.name;
  const tools = agentToolsOf([]);
  return {
    model: `${provider}/${modelId}`,
    attempts: retry.attempts,
    async complete(prompt, signal) {
      const reply = await caller.call({ system: JUDGE_SYSTEM, conversation: new Conversation(JUDGE_SYSTEM, prompt), tools, signal: signal ?? new AbortController().signal });
      return { text: reply.text, inputTokens: reply.inputTokens, outputTokens: reply.outputTokens };
    },
  };
}

/** The judge at `baseUrl` running `name`, its key from {@link JUDGE_API_KEY_VARIABLE} in `env`. */
export function judgeEndpoint(baseUrl: string, name: string, env: NodeJS.ProcessEnv = process.env, retry: RetryPolicy = DEFAULT_RETRY): JudgeClient {
  const apiKey = env[JUDGE_API_KEY_VARIABLE];
  const provider = createOpenAICompatible({ name: 'judge', baseURL: baseUrl, fetch: boundedAnswerFetch(), ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }) });
  return judgeOnModel(provider.chatModel(name), retry);
}
