/**
 * One chat completion on one context sequence: the prompt, the grammar when tools are offered, the
 * sampler settings of the request, and the OpenAI-shaped answer with `usage`.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { LlamaCompletion, TokenBias, type GbnfJsonSchema, type Llama, type LlamaContextSequence, type LlamaGrammar, type LlamaModel } from 'node-llama-cpp';
import { TURN_START_ID, BOS_ID } from './byte-vocabulary.js';
import { ChatRequestError } from './chat-request-error.js';
import type { ChatRequest } from './chat-request.js';
import { chatPrompt } from './chat-prompt.js';
import { answerLogprobs, type TokenLogprob } from './answer-logprobs.js';
import { compactJsonGrammar } from './compact-json-grammar.js';
import { grammarSchemaOf, parseForcedResponse, responseSchemaOf } from './tool-grammar.js';

/** OpenAI's `finish_reason` values this endpoint gives. */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/** The JSON body of a `chat.completion` response. */
export interface ChatCompletionBody {
  readonly id: string;
  readonly object: 'chat.completion';
  readonly created: number;
  readonly model: string;
  readonly choices: readonly [
    {
      readonly index: 0;
      readonly message: {
        readonly role: 'assistant';
        readonly content: string | null;
        readonly tool_calls?: readonly {
          readonly id: string;
          readonly type: 'function';
          readonly function: { readonly name: string; readonly arguments: string };
        }[];
      };
      readonly finish_reason: FinishReason;
      readonly logprobs: { readonly content: readonly TokenLogprob[] } | null;
      /** The generated token ids (vLLM's `return_token_ids`). */
      readonly token_ids?: readonly number[];
    },
  ];
  /** The prompt's token ids (vLLM's `return_token_ids`). */
  readonly prompt_token_ids?: readonly number[];
  readonly usage: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly total_tokens: number };
}

/** What the engine needs to run completions. */
export interface CompletionEngine {
  readonly llama: Llama;
  readonly model: LlamaModel;
  /** Most tool calls one response may make. */
  readonly maxToolCalls: number;
  /** The name answered in `model`. */
  readonly modelName: string;
}

/** A request checked against the model, with its grammar. */
export interface PreparedCompletion {
  readonly promptTokens: readonly number[];
  readonly maxTokens: number;
  /** The grammar of the tool-call shape or of `response_format`, or undefined for free text. */
  readonly grammar: LlamaGrammar | undefined;
  /** Whether the grammar is the tool-call shape (its JSON is read back into `tool_calls`). */
  readonly forcesToolShape: boolean;
}

/**
 * Check what can only be checked against the model (prompt length, tool schemas) and build the
 * grammar. Runs before a sequence is taken, so a bad request never waits in the queue.
 */
export async function prepareCompletion(
  engine: CompletionEngine,
  request: ChatRequest,
  contextSize: number,
): Promise<PreparedCompletion> {
  for (const token of request.logitBias.keys()) {
    if (engine.model.isEogToken(token as never)) {
      throw new ChatRequestError(`logit_bias.${token}`, token, 'a token that does not end the generation (the engine never biases those)');
    }
  }
  const maxCalls = request.parallelToolCalls ? engine.maxToolCalls : 1;
  const toolSchema = responseSchemaOf(request.tools, request.toolChoice, maxCalls);
  const offered = toolSchema === undefined ? [] : request.tools;
  if (toolSchema !== undefined && request.responseSchema !== undefined) {
    throw new ChatRequestError('response_format', 'json_schema', '"text" when tools are offered (or tool_choice "none")');
  }
  const schema = toolSchema ?? (request.responseSchema === undefined ? undefined : grammarSchemaOf(request.responseSchema, 'response_format.json_schema.schema'));
  const promptTokens = engine.model.tokenize(chatPrompt(request.messages, offered), true);
  const room = contextSize - promptTokens.length;
  if (room < 1) {
    throw new ChatRequestError('messages', `${promptTokens.length} tokens`, `a prompt of at most ${contextSize - 1} tokens (context ${contextSize})`);
  }
  if (request.maxTokens !== undefined && request.maxTokens > room) {
    throw new ChatRequestError('max_tokens', request.maxTokens, `at most ${room} (context ${contextSize} less the ${promptTokens.length}-token prompt)`);
  }
  let grammar: LlamaGrammar | undefined;
  if (schema !== undefined) {
    try {
      grammar = await compactJsonGrammar(engine.llama, schema as Readonly<GbnfJsonSchema>);
    } catch (error) {
      const field = toolSchema !== undefined ? 'tools' : 'response_format.json_schema.schema';
      const reason = error instanceof Error ? error.message : String(error);
      throw new ChatRequestError(field, reason, "schemas llama.cpp's grammar can hold (lengths and item counts below about 1000)");
    }
  }
  return { promptTokens, maxTokens: request.maxTokens ?? room, grammar, forcesToolShape: toolSchema !== undefined };
}

function tokenBiasOf(model: LlamaModel, request: ChatRequest): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  // control tokens never belong inside an answer (inside a JSON string they would be invisible)
  bias.set(TURN_START_ID as never, 'never');
  bias.set(BOS_ID as never, 'never');
  for (const [token, amount] of request.logitBias) bias.set(token as never, { logit: amount });
  return bias;
}

/**
 * Generate the answer on a sequence and shape it as OpenAI does.
 *
 * @throws the signal's reason when it is aborted (client gone, server closing)
 */
export async function runCompletion(
  engine: CompletionEngine,
  sequence: LlamaContextSequence,
  request: ChatRequest,
  prepared: PreparedCompletion,
  signal: AbortSignal,
): Promise<ChatCompletionBody> {
  await sequence.clearHistory();
  const completion = new LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
  const generated: number[] = [];
  try {
    const repeat = request.frequencyPenalty !== undefined || request.presencePenalty !== undefined;
    const { response, metadata } = await completion.generateCompletionWithMeta(prepared.promptTokens as never, {
      signal,
      maxTokens: prepared.maxTokens,
      temperature: request.temperature,
      ...(request.topP !== undefined ? { topP: request.topP } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      ...(prepared.grammar !== undefined ? { grammar: prepared.grammar } : {}),
      ...(request.stop.length > 0 ? { customStopTriggers: request.stop } : {}),
      ...(repeat
        ? { repeatPenalty: { frequencyPenalty: request.frequencyPenalty ?? 0, presencePenalty: request.presencePenalty ?? 0, penalty: 1 } }
        : { repeatPenalty: false as const }),
      tokenBias: tokenBiasOf(engine.model, request),
      onToken: (tokens) => {
        for (const token of tokens) generated.push(token);
      },
    });
    const stopped = metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
    let content: string | null = response;
    let toolCalls: NonNullable<ChatCompletionBody['choices'][0]['message']['tool_calls']> | undefined;
    let finishReason: FinishReason = stopped;
    if (prepared.forcesToolShape) {
      const parsed = parseForcedResponse(response);
      if (parsed?.kind === 'content') content = parsed.content;
      else if (parsed?.kind === 'tool_calls') {
        content = null;
        finishReason = 'tool_calls';
        toolCalls = parsed.calls.map((call) => ({
          id: `call_${randomBytes(9).toString('base64url')}`,
          type: 'function' as const,
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
      }
    }
    const promptTokens = prepared.promptTokens.length;
    const logprobs =
      request.topLogprobs === undefined
        ? null
        : { content: await answerLogprobs(engine.model, sequence, prepared.promptTokens as never, generated as never, request.topLogprobs) };
    return {
      id: `chatcmpl-${randomBytes(12).toString('base64url')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: engine.modelName,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, ...(toolCalls !== undefined ? { tool_calls: toolCalls } : {}) },
          finish_reason: finishReason,
          logprobs,
          ...(request.returnTokenIds ? { token_ids: generated } : {}),
        },
      ],
      ...(request.returnTokenIds ? { prompt_token_ids: [...prepared.promptTokens] } : {}),
      usage: { prompt_tokens: promptTokens, completion_tokens: generated.length, total_tokens: promptTokens + generated.length },
    };
  } finally {
    completion.dispose({ disposeSequence: false });
  }
}
