/**
 * Parsing of a `POST /v1/chat/completions` body into the request the endpoint runs: every field it
 * takes is checked here, and anything else it cannot honour is refused by name (never ignored when
 * it would change the answer).
 *
 * @module
 */
import { ChatRequestError } from './chat-request-error.js';

/** A tool call as it appears in an assistant message of the history or of a response. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text (OpenAI's `function.arguments`). */
  readonly arguments: string;
}

/** One message of the conversation. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  /** Calls an assistant message made (empty otherwise). */
  readonly toolCalls: readonly ChatToolCall[];
}

/** A function the model may call. */
export interface ChatTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object (checked later, when its grammar is built). */
  readonly parameters: unknown;
}

/** `none`, `auto`, `required`, or the one function that must be called. */
export type ChatToolChoice = 'none' | 'auto' | 'required' | { readonly name: string };

/** A checked chat-completions request. */
export interface ChatRequest {
  readonly model: string | undefined;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ChatTool[];
  readonly toolChoice: ChatToolChoice;
  readonly parallelToolCalls: boolean;
  /** Most tokens to generate; undefined = what the context has left. */
  readonly maxTokens: number | undefined;
  readonly temperature: number;
  readonly topP: number | undefined;
  readonly seed: number | undefined;
  /** OpenAI's penalties, passed to the sampler's repeat penalty (undefined = none). */
  readonly frequencyPenalty: number | undefined;
  readonly presencePenalty: number | undefined;
  readonly stop: readonly string[];
  /** Most likely alternatives to list per answer token; undefined = no `logprobs` asked. */
  readonly topLogprobs: number | undefined;
  /** vLLM's `return_token_ids`: answer the prompt's and the answer's token ids too. */
  readonly returnTokenIds: boolean;
  /** JSON Schema the answer must follow (`response_format` of type `json_schema`), or undefined. */
  readonly responseSchema: unknown;
  /** Token id → bias; -100 bans the token (OpenAI's `logit_bias`). */
  readonly logitBias: ReadonlyMap<number, number>;
}

const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
/** Keys taken and honoured, or accepted because they change nothing here. */
const KNOWN_KEYS = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'seed',
  'stop',
  'logit_bias',
  'stream',
  'n',
  'user',
  'frequency_penalty',
  'presence_penalty',
  'response_format',
  'return_token_ids',
  'logprobs',
  'top_logprobs',
]);
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function messageContent(value: unknown, field: string, allowNull: boolean): string {
  if (typeof value === 'string') return value;
  if ((value === null || value === undefined) && allowNull) return '';
  if (Array.isArray(value)) {
    return value
      .map((part, i) => {
        if (!isRecord(part) || part.type !== 'text' || typeof part.text !== 'string') {
          throw new ChatRequestError(`${field}[${i}]`, part, 'a text part {"type": "text", "text": string}');
        }
        return part.text;
      })
      .join('');
  }
  throw new ChatRequestError(field, value, allowNull ? 'a string, an array of text parts, or null' : 'a string or an array of text parts');
}

function toolCallsOf(value: unknown, field: string): ChatToolCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ChatRequestError(field, value, 'an array of tool calls');
  return value.map((call, i) => {
    const at = `${field}[${i}]`;
    if (!isRecord(call) || !isRecord(call.function)) {
      throw new ChatRequestError(at, call, '{"id", "type": "function", "function": {"name", "arguments"}}');
    }
    const { name, arguments: args } = call.function;
    if (typeof name !== 'string') throw new ChatRequestError(`${at}.function.name`, name, 'a string');
    if (typeof args !== 'string') throw new ChatRequestError(`${at}.function.arguments`, args, 'a JSON string');
    return { id: typeof call.id === 'string' ? call.id : '', name, arguments: args };
  });
}

function parseMessages(value: unknown): ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ChatRequestError('messages', value, 'a non-empty array of messages');
  }
  return value.map((message, i) => {
    const at = `messages[${i}]`;
    if (!isRecord(message)) throw new ChatRequestError(at, message, 'an object with role and content');
    const role = message.role;
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
      throw new ChatRequestError(`${at}.role`, role, `one of ${ROLES.join(', ')}`);
    }
    const toolCalls = role === 'assistant' ? toolCallsOf(message.tool_calls, `${at}.tool_calls`) : [];
    const content = messageContent(message.content, `${at}.content`, role === 'assistant' && toolCalls.length > 0);
    return { role: role as ChatMessage['role'], content, toolCalls };
  });
}

function parseTools(value: unknown): ChatTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ChatRequestError('tools', value, 'an array of {"type": "function", "function": {...}}');
  const names = new Set<string>();
  return value.map((tool, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) {
      throw new ChatRequestError(at, tool, '{"type": "function", "function": {"name", "parameters"}}');
    }
    const { name, description, parameters } = tool.function;
    if (typeof name !== 'string' || !FUNCTION_NAME.test(name)) {
      throw new ChatRequestError(`${at}.function.name`, name, '1-64 letters, digits, _ or -');
    }
    if (names.has(name)) throw new ChatRequestError(`${at}.function.name`, name, 'a name no other tool has');
    names.add(name);
    if (description !== undefined && typeof description !== 'string') {
      throw new ChatRequestError(`${at}.function.description`, description, 'a string');
    }
    return {
      name,
      description: description ?? '',
      parameters: parameters ?? { type: 'object', properties: {} },
    };
  });
}

function parseToolChoice(value: unknown, tools: readonly ChatTool[]): ChatToolChoice {
  if (value === undefined || value === null) return tools.length > 0 ? 'auto' : 'none';
  if (value === 'none' || value === 'auto' || value === 'required') {
    if (value !== 'none' && tools.length === 0) throw new ChatRequestError('tool_choice', value, '"none" when no tools are given');
    return value;
  }
  if (isRecord(value) && value.type === 'function' && isRecord(value.function) && typeof value.function.name === 'string') {
    const name = value.function.name;
    if (!tools.some((tool) => tool.name === name)) {
      throw new ChatRequestError('tool_choice.function.name', name, `one of the tools' names (${tools.map((t) => t.name).join(', ') || 'none given'})`);
    }
    return { name };
  }
  throw new ChatRequestError('tool_choice', value, '"none", "auto", "required" or {"type": "function", "function": {"name"}}');
}

function optionalNumber(body: Record<string, unknown>, key: string, min: number, max: number, integer: boolean): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new ChatRequestError(key, value, `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return value;
}

function parseStop(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length > 4 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new ChatRequestError('stop', value, 'a non-empty string or an array of at most 4 of them');
  }
  return list as string[];
}

function parseLogitBias(value: unknown, vocabularySize: number): Map<number, number> {
  const bias = new Map<number, number>();
  if (value === undefined || value === null) return bias;
  if (!isRecord(value)) throw new ChatRequestError('logit_bias', value, 'an object from token id to a number from -100 to 100');
  for (const [key, amount] of Object.entries(value)) {
    const id = Number(key);
    if (!/^\d+$/.test(key) || id >= vocabularySize) {
      throw new ChatRequestError(`logit_bias.${key}`, key, `a token id from 0 to ${vocabularySize - 1}`);
    }
    if (typeof amount !== 'number' || !(amount >= -100 && amount <= 100)) {
      throw new ChatRequestError(`logit_bias.${key}`, amount, 'a number from -100 to 100');
    }
    bias.set(id, amount);
  }
  return bias;
}

function parseResponseFormat(value: unknown): unknown {
  const expected = '{"type": "text"} or {"type": "json_schema", "json_schema": {"name", "schema"}}';
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new ChatRequestError('response_format', value, expected);
  if (value.type === 'text') return undefined;
  if (value.type !== 'json_schema') throw new ChatRequestError('response_format.type', value.type, '"text" or "json_schema"');
  const format = value.json_schema;
  if (!isRecord(format) || !isRecord(format.schema)) {
    throw new ChatRequestError('response_format.json_schema', format, '{"name": string, "schema": a JSON Schema object}');
  }
  return format.schema;
}

/**
 * Check a request body.
 *
 * @param body - the parsed JSON body
 * @param vocabularySize - the model's vocabulary size (bounds `logit_bias` keys)
 * @throws ChatRequestError for the first field that is wrong
 */
export function parseChatRequest(body: unknown, vocabularySize: number): ChatRequest {
  if (!isRecord(body)) throw new ChatRequestError('body', body, 'a JSON object');
  for (const key of Object.keys(body)) {
    if (!KNOWN_KEYS.has(key)) throw new ChatRequestError(key, body[key], `no such field here (fields taken: ${[...KNOWN_KEYS].join(', ')})`);
  }
  if (body.stream !== undefined && body.stream !== false && body.stream !== null) {
    throw new ChatRequestError('stream', body.stream, 'false (this endpoint answers whole responses only)');
  }
  if (body.n !== undefined && body.n !== null && body.n !== 1) throw new ChatRequestError('n', body.n, '1');
  const logprobs = body.logprobs;
  if (logprobs !== undefined && logprobs !== null && typeof logprobs !== 'boolean') {
    throw new ChatRequestError('logprobs', logprobs, 'true or false');
  }
  const topLogprobs = optionalNumber(body, 'top_logprobs', 0, 20, true);
  if (topLogprobs !== undefined && logprobs !== true) {
    throw new ChatRequestError('top_logprobs', topLogprobs, 'absent unless logprobs is true');
  }
  const returnTokenIds = body.return_token_ids;
  if (returnTokenIds !== undefined && returnTokenIds !== null && typeof returnTokenIds !== 'boolean') {
    throw new ChatRequestError('return_token_ids', returnTokenIds, 'true or false');
  }
  if (body.model !== undefined && typeof body.model !== 'string') throw new ChatRequestError('model', body.model, 'a string');
  const messages = parseMessages(body.messages);
  const tools = parseTools(body.tools);
  const toolChoice = parseToolChoice(body.tool_choice, tools);
  const parallel = body.parallel_tool_calls;
  if (parallel !== undefined && parallel !== null && typeof parallel !== 'boolean') {
    throw new ChatRequestError('parallel_tool_calls', parallel, 'true or false');
  }
  const maxTokens = optionalNumber(body, 'max_tokens', 1, 1_000_000, true) ?? optionalNumber(body, 'max_completion_tokens', 1, 1_000_000, true);
  return {
    model: body.model as string | undefined,
    messages,
    tools,
    toolChoice,
    parallelToolCalls: parallel !== false,
    maxTokens,
    temperature: optionalNumber(body, 'temperature', 0, 2, false) ?? 1,
    topP: optionalNumber(body, 'top_p', 0, 1, false),
    seed: optionalNumber(body, 'seed', -(2 ** 53), 2 ** 53, true),
    frequencyPenalty: optionalNumber(body, 'frequency_penalty', -2, 2, false),
    presencePenalty: optionalNumber(body, 'presence_penalty', -2, 2, false),
    stop: parseStop(body.stop),
    logitBias: parseLogitBias(body.logit_bias, vocabularySize),
    responseSchema: parseResponseFormat(body.response_format),
    returnTokenIds: returnTokenIds === true,
    topLogprobs: logprobs === true ? (topLogprobs ?? 0) : undefined,
  };
}
