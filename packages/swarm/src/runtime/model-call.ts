/**
 * One model call through the AI SDK's `generateText` (one step: the tools carry no `execute`, so
 * the call returns the tool calls the model made), with bounded retries, exponential backoff and
 * a per-attempt timeout, all stopped by the episode's `AbortSignal`.
 *
 * @module
 */
import { APICallError, generateText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { ToolCall } from '../tools/tool-call.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import type { ModelCaller, ModelReply } from './model-caller.js';

export type { ModelReply } from './model-caller.js';

/** Retry policy of model calls. */
export interface RetryPolicy {
  /** Attempts per model call (≥ 1). */
  readonly attempts: number;
  /** Delay before the first retry, ms; doubles each retry. */
  readonly baseDelayMs: number;
  /** Per-attempt timeout, ms. */
  readonly timeoutMs: number;
}

/** The default retry policy: 3 attempts, 500 ms then 1 s backoff, 120 s per attempt. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 500, timeoutMs: 120_000 };

/** A tool call the model made. */
export type ModelToolCall = ToolCall;

/** `provider/modelId` of a model object, or the id string of a gateway model. */
export function modelName(model: LanguageModel): { provider: string; modelId: string } {
  if (typeof model === 'string') return { provider: 'gateway', modelId: model };
  return { provider: model.provider, modelId: model.modelId };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new EpisodeStopped());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new EpisodeStopped());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function firstChoice(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const choices = (body as Record<string, unknown>)['choices'];
  if (!Array.isArray(choices)) return undefined;
  const first: unknown = choices[0];
  return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
}

/**
 * The provider options that ask for log-probabilities and token ids: OpenAI's `logprobs` and
 * vLLM's `return_token_ids`, under the provider's own name in camel case, as the AI SDK asks
 * (`openaiCompatible`; `@ai-sdk/openai-compatible` puts options it does not know into the request
 * body as they are; OpenAI's provider reads `logprobs`).
 */
function tokenDetailOptions(model: LanguageModel): Record<string, Record<string, boolean>> {
  const provider = (modelName(model).provider.split('.')[0] ?? '').replace(/[-_]+(\w)/g, (_, c: string) => c.toUpperCase());
  return { [provider]: { logprobs: true, return_token_ids: true } };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Call the model once (retrying provider failures).
 *
 * @throws {@link SwarmProviderError} after the last failed attempt, or at once for an error that
 *   no retry mends; {@link EpisodeStopped} when `signal` aborted
 */
export async function callModel(args: {
  readonly model: LanguageModel;
  readonly system: string;
  readonly messages: readonly ModelMessage[];
  readonly tools: ToolSet;
  readonly signal: AbortSignal;
  readonly retry: RetryPolicy;
  /** Ask the provider for the reply's log-probabilities and token ids, and keep its raw answer to read them from. */
  readonly tokenDetails?: boolean;
}): Promise<ModelReply> {
  const { provider, modelId } = modelName(args.model);
  const name = `${provider}/${modelId}`;
  for (let attempt = 1; ; attempt++) {
    if (args.signal.aborted) throw new EpisodeStopped();
    const timeout = AbortSignal.timeout(args.retry.timeoutMs);
    try {
      const result = await generateText({
        model: args.model,
        system: args.system,
        messages: [...args.messages],
        tools: args.tools,
        maxRetries: 0,
        abortSignal: AbortSignal.any([args.signal, timeout]),
        ...(args.tokenDetails === true ? { include: { responseBody: true }, providerOptions: tokenDetailOptions(args.model) } : {}),
      });
      const errors = new Map<string, string>();
      for (const part of result.content) if (part.type === 'tool-error') errors.set(part.toolCallId, oneLine(String(part.error)));
      const toolCalls: ModelToolCall[] = [];
      for (const part of result.content) {
        if (part.type !== 'tool-call') continue;
        const invalid = part.invalid === true ? (errors.get(part.toolCallId) ?? 'an invalid tool call') : undefined;
        toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input, invalid });
      }
      const choice = firstChoice(result.response.body);
      return {
        text: result.text,
        reasoning: result.reasoningText,
        toolCalls,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        logprobs: choice?.['logprobs'] ?? undefined,
        tokenIds: choice?.['token_ids'] ?? undefined,
        promptTokenIds: (result.response.body as Record<string, unknown> | undefined)?.['prompt_token_ids'] ?? undefined,
        attempts: attempt,
      };
    } catch (err) {
      if (args.signal.aborted) throw new EpisodeStopped();
      const timedOut = timeout.aborted;
      const status = APICallError.isInstance(err) ? err.statusCode : undefined;
      const retryable = timedOut || (APICallError.isInstance(err) && err.isRetryable);
      const reason = timedOut
        ? `no answer within ${args.retry.timeoutMs} ms`
        : APICallError.isInstance(err)
          ? `${status === undefined ? `cannot reach ${err.url}` : `HTTP ${status} from ${err.url}`}: ${oneLine(err.message)}`
          : oneLine(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
      if (!retryable || attempt >= args.retry.attempts) throw new SwarmProviderError(name, attempt, reason, status, err);
      await sleep(args.retry.baseDelayMs * 2 ** (attempt - 1), args.signal);
    }
  }
}

/** The chat model call of `model` as an agent's {@link ModelCaller}: its retries, and with `tokenDetails` the reply's token ids and log-probabilities. */
export function chatModelCaller(model: LanguageModel, options: { readonly retry: RetryPolicy; readonly tokenDetails?: boolean }): ModelCaller {
  return {
    name: modelName(model),
    call: (turn) =>
      callModel({
        model,
        system: turn.system,
        messages: turn.conversation.messages,
        tools: turn.tools.set,
        signal: turn.signal,
        retry: options.retry,
        ...(options.tokenDetails === true ? { tokenDetails: true } : {}),
      }),
  };
}
