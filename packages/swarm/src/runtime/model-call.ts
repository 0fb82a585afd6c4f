/**
 * The chat model call of any AI SDK `LanguageModel` (a provider's model object, `v2` to `v4`, or a
 * gateway id): the provider's own `doGenerate`, called directly, once per model call, with the
 * agent's prompt as it stands (never copied) and its tools as converted once per agent. What
 * `generateText` did for us and we need is done here, once: the tool calls parsed and the
 * malformed ones named as the SDK names them, the usage read, the retries (with `Retry-After`),
 * a timeout per attempt, and the abort.
 *
 * @module
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content } from '@ai-sdk/provider';
import { APICallError, gateway, InvalidToolInputError, JSONParseError, NoSuchToolError, type LanguageModel } from 'ai';
import { oneLine } from '../tools/one-line.js';
import type { ToolCall } from '../tools/tool-call.js';
import { toolNamed } from '../tools/toolbox.js';
import type { AgentTools } from './agent-tools.js';
import { EpisodeStopped, SwarmProviderError } from './errors.js';
import type { ModelCaller, ModelReply, ModelTurn } from './model-caller.js';
import { AttemptTimedOut, DEFAULT_RETRY, RetriesFailed, withRetries, type RetryPolicy } from './retries.js';

export { DEFAULT_RETRY, type RetryPolicy } from './retries.js';
export type { ModelReply } from './model-caller.js';

/** `provider/modelId` of a model object, or the id string of a gateway model. */
export function modelName(model: LanguageModel): { provider: string; modelId: string } {
  if (typeof model === 'string') return { provider: 'gateway', modelId: model };
  return { provider: model.provider, modelId: model.modelId };
}

/**
 * The model whose `doGenerate` is called: a gateway id through the default provider (as the AI
 * SDK resolves it). A `v2` or `v3` model takes the same prompt as a `v4` one for what the swarm
 * sends (system, text, tool calls, text tool results); its usage is read as it comes.
 */
function generatingModel(model: LanguageModel): LanguageModelV4 {
  if (typeof model !== 'string') return model as LanguageModelV4;
  const provider = (globalThis as { AI_SDK_DEFAULT_PROVIDER?: { languageModel(id: string): LanguageModel } }).AI_SDK_DEFAULT_PROVIDER ?? gateway;
  return provider.languageModel(model) as LanguageModelV4;
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

/** A token count as a `v3`/`v4` model reports it (`{ total }`), or as a `v2` one does (a number). */
function tokens(count: unknown): number | undefined {
  if (typeof count === 'number') return count;
  const total = (count as { total?: unknown } | undefined)?.total;
  return typeof total === 'number' ? total : undefined;
}

/** The arguments of a tool call, parsed as `generateText` parses them; `invalid` names what the SDK would reject. */
function parseToolCall(part: LanguageModelV4Content & { type: 'tool-call' }, tools: AgentTools): ToolCall {
  const text = part.input;
  let parsed: { ok: true; value: unknown } | { ok: false; error: unknown };
  if (text.trim() === '') parsed = { ok: true, value: {} };
  else {
    try {
      parsed = { ok: true, value: JSON.parse(text) as unknown };
    } catch (err) {
      parsed = { ok: false, error: new JSONParseError({ text, cause: err }) };
    }
  }
  const input = parsed.ok ? parsed.value : text;
  const base = { id: part.toolCallId, name: part.toolName, input };
  if (toolNamed(tools.box, part.toolName) === undefined) {
    return { ...base, invalid: oneLine(String(new NoSuchToolError({ toolName: part.toolName, availableTools: tools.functions.map((f) => f.name) }))) };
  }
  if (!parsed.ok) return { ...base, invalid: oneLine(String(new InvalidToolInputError({ toolName: part.toolName, toolInput: text, cause: parsed.error }))) };
  return { ...base, invalid: undefined };
}

/** Why a call failed, one line. */
function reasonOf(err: unknown): string {
  if (err instanceof AttemptTimedOut) return err.message;
  if (APICallError.isInstance(err)) return `${err.statusCode === undefined ? `cannot reach ${err.url}` : `HTTP ${err.statusCode} from ${err.url}`}: ${oneLine(err.message)}`;
  return oneLine(err);
}

const PROVIDER_FAILURES = {
  retryable: (err: unknown) => APICallError.isInstance(err) && err.isRetryable,
  headersOf: (err: unknown) => (APICallError.isInstance(err) ? err.responseHeaders : undefined),
};

/** The chat model call of one model, with its retry policy. */
class ChatModelCaller implements ModelCaller {
  readonly name: { provider: string; modelId: string };
  private readonly model: LanguageModelV4;
  private readonly label: string;
  private readonly providerOptions: LanguageModelV4CallOptions['providerOptions'];

  constructor(
    model: LanguageModel,
    private readonly retry: RetryPolicy,
    tokenDetails: boolean,
  ) {
    this.name = modelName(model);
    this.label = `${this.name.provider}/${this.name.modelId}`;
    this.model = generatingModel(model);
    this.providerOptions = tokenDetails ? tokenDetailOptions(model) : undefined;
  }

  async call(turn: ModelTurn): Promise<ModelReply> {
    const { tools } = turn;
    const options: LanguageModelV4CallOptions = {
      prompt: turn.conversation.prompt,
      ...(tools.functions.length === 0 ? {} : { tools: tools.functions as LanguageModelV4CallOptions['tools'] & object, toolChoice: { type: 'auto' as const } }),
      ...(this.providerOptions === undefined ? {} : { providerOptions: this.providerOptions }),
    };
    let attempts = 0;
    try {
      const result = await withRetries(
        (abortSignal, n) => {
          attempts = n;
          return this.model.doGenerate({ ...options, abortSignal });
        },
        this.retry,
        PROVIDER_FAILURES,
        turn.signal,
      );
      let text = '';
      let reasoning: string | undefined;
      const toolCalls: ToolCall[] = [];
      for (const part of result.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type === 'reasoning') reasoning = (reasoning ?? '') + part.text;
        else if (part.type === 'tool-call') toolCalls.push(parseToolCall(part, tools));
      }
      const body = result.response?.body;
      const choice = firstChoice(body);
      return {
        text,
        reasoning,
        toolCalls,
        inputTokens: tokens(result.usage.inputTokens),
        outputTokens: tokens(result.usage.outputTokens),
        logprobs: choice?.['logprobs'] ?? undefined,
        tokenIds: choice?.['token_ids'] ?? undefined,
        promptTokenIds: (body as Record<string, unknown> | undefined)?.['prompt_token_ids'] ?? undefined,
        attempts,
      };
    } catch (err) {
      if (turn.signal.aborted) throw new EpisodeStopped();
      const failed = err instanceof RetriesFailed ? err : new RetriesFailed(attempts, err);
      const last = failed.lastError;
      throw new SwarmProviderError(this.label, failed.attempts, reasonOf(last), APICallError.isInstance(last) ? last.statusCode : undefined, last);
    }
  }
}

/**
 * The chat model call of `model` as an agent's {@link ModelCaller}: its retries (provider failures
 * the SDK marks retryable, and timeouts), and with `tokenDetails` the reply's token ids and
 * log-probabilities.
 */
export function chatModelCaller(model: LanguageModel, options: { readonly retry?: RetryPolicy; readonly tokenDetails?: boolean } = {}): ModelCaller {
  return new ChatModelCaller(model, options.retry ?? DEFAULT_RETRY, options.tokenDetails === true);
}
