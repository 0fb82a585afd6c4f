/**
 * OpenAI's `logprobs` for an answer already generated: the answer's tokens are evaluated again
 * after the prompt (its key/value cache is kept), asking llama.cpp for the model's distribution
 * over the vocabulary at each position, at temperature 1 with no top-k/top-p cut, no grammar and no
 * bias: the model's own probabilities, as OpenAI and vLLM report them.
 *
 * @module
 */
import type { LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';

/** One token's entry in `choices[0].logprobs.content`. */
export interface TokenLogprob {
  readonly token: string;
  readonly logprob: number;
  readonly bytes: readonly number[];
  readonly top_logprobs: readonly { readonly token: string; readonly logprob: number; readonly bytes: readonly number[] }[];
}

const RAW_DISTRIBUTION = { temperature: 1, topK: 0, topP: 1, minP: 0 } as const;
/** Below any float's log: a probability llama.cpp rounded to 0. */
const LOG_OF_ZERO = -9999;

function textAndBytes(model: LlamaModel, token: Token): { token: string; bytes: number[] } {
  const text = model.detokenize([token], true);
  return { token: text, bytes: [...Buffer.from(text, 'utf8')] };
}

function logOf(probability: number | undefined): number {
  return probability !== undefined && probability > 0 ? Math.log(probability) : LOG_OF_ZERO;
}

/**
 * Log-probabilities of the generated tokens, with the `topLogprobs` most likely at each position.
 *
 * @param sequence - the sequence the answer was generated on, its prompt still evaluated
 * @param promptTokens - the prompt
 * @param generated - the answer's tokens
 * @param topLogprobs - how many alternatives to list per position (0 to 20)
 */
export async function answerLogprobs(
  model: LlamaModel,
  sequence: LlamaContextSequence,
  promptTokens: readonly Token[],
  generated: readonly Token[],
  topLogprobs: number,
): Promise<TokenLogprob[]> {
  const lastPrompt = promptTokens[promptTokens.length - 1];
  if (generated.length === 0 || lastPrompt === undefined) return [];
  await sequence.eraseContextTokenRanges([{ start: promptTokens.length - 1, end: sequence.nextTokenIndex }]);
  const inputs: Token[] = [lastPrompt, ...generated.slice(0, -1)];
  const outputs = await sequence.controlledEvaluate(
    inputs.map((token) => [token, { generateNext: { probabilities: true, options: RAW_DISTRIBUTION } }] as const) as never,
  );
  return generated.map((token, i) => {
    const probabilities = outputs[i]?.next.probabilities ?? new Map<Token, number>();
    const top = [...probabilities.entries()].slice(0, topLogprobs).map(([t, p]) => ({ ...textAndBytes(model, t), logprob: logOf(p) }));
    return { ...textAndBytes(model, token), logprob: logOf(probabilities.get(token)), top_logprobs: top };
  });
}
