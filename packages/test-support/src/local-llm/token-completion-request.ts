/**
 * A completions request on token ids (`POST /v1/completions` with `prompt: number[]`), as vLLM and
 * SGLang take it for token in: checked field by field, each wrong field one `ChatRequestError`.
 *
 * @module
 */
import { ChatRequestError } from './chat-request-error.js';

/** A checked token completions request. */
export interface TokenCompletionRequest {
  readonly model: string | undefined;
  /** The prompt's token ids. */
  readonly prompt: readonly number[];
  /** Most tokens to generate (the completions API's default, 16, when absent). */
  readonly maxTokens: number;
  /** `logprobs`: how many alternatives per position (0 to 20), or undefined for none. */
  readonly logprobs: number | undefined;
  /** vLLM's `return_token_ids`: the choice carries `token_ids`. */
  readonly returnTokenIds: boolean;
  readonly temperature: number;
  readonly seed: number | undefined;
}

const KNOWN = new Set(['model', 'prompt', 'max_tokens', 'logprobs', 'return_token_ids', 'temperature', 'seed', 'stream', 'n']);

function intIn(body: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ChatRequestError(key, value, `an integer from ${min} to ${max}`);
  return value;
}

/**
 * Check a body.
 *
 * @param vocabularySize - prompt ids must be below it
 * @throws ChatRequestError for the first field that is wrong
 */
export function parseTokenCompletionRequest(body: unknown, vocabularySize: number): TokenCompletionRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ChatRequestError('body', body, 'a JSON object');
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) if (!KNOWN.has(key)) throw new ChatRequestError(key, b[key], `no such field here (fields taken: ${[...KNOWN].join(', ')})`);
  if (b['stream'] !== undefined && b['stream'] !== false && b['stream'] !== null) throw new ChatRequestError('stream', b['stream'], 'false (whole responses only)');
  if (b['n'] !== undefined && b['n'] !== null && b['n'] !== 1) throw new ChatRequestError('n', b['n'], '1');
  const prompt = b['prompt'];
  if (!Array.isArray(prompt) || prompt.length === 0) throw new ChatRequestError('prompt', prompt, 'a non-empty list of token ids (this endpoint serves token in only)');
  for (const [i, t] of prompt.entries()) {
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 0 || t >= vocabularySize) throw new ChatRequestError(`prompt[${i}]`, t, `a token id from 0 to ${vocabularySize - 1}`);
  }
  if (b['model'] !== undefined && typeof b['model'] !== 'string') throw new ChatRequestError('model', b['model'], 'a string');
  const returnTokenIds = b['return_token_ids'];
  if (returnTokenIds !== undefined && returnTokenIds !== null && typeof returnTokenIds !== 'boolean') throw new ChatRequestError('return_token_ids', returnTokenIds, 'true or false');
  const temperature = b['temperature'];
  if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2))) throw new ChatRequestError('temperature', temperature, 'a number from 0 to 2');
  return {
    model: b['model'] as string | undefined,
    prompt: prompt as number[],
    maxTokens: intIn(b, 'max_tokens', 1, 1_000_000) ?? 16,
    logprobs: intIn(b, 'logprobs', 0, 20),
    returnTokenIds: returnTokenIds === true,
    temperature: typeof temperature === 'number' ? temperature : 1,
    seed: intIn(b, 'seed', -(2 ** 53), 2 ** 53),
  };
}
