/**
 * One completion on token ids (llama.cpp takes tokens natively), answered as vLLM answers token
 * in: `choices[0].token_ids` (with the end-of-turn token when the model sampled it, as vLLM
 * includes EOS) and `choices[0].logprobs.token_logprobs`, the model's own log-probabilities of
 * those tokens.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { LlamaCompletion, TokenBias, type LlamaContextSequence, type LlamaGrammar } from 'node-llama-cpp';
import { answerLogprobs } from './answer-logprobs.js';
import { BOS_ID, TURN_END_ID, TURN_START_ID } from './byte-vocabulary.js';
import type { CompletionEngine } from './chat-completion.js';
import type { TokenCompletionRequest } from './token-completion-request.js';

/** The JSON body of a `text_completion` response. */
export interface TokenCompletionBody {
  readonly id: string;
  readonly object: 'text_completion';
  readonly created: number;
  readonly model: string;
  readonly choices: readonly [
    {
      readonly index: 0;
      readonly text: string;
      readonly token_ids?: readonly number[];
      readonly logprobs: { readonly tokens: readonly string[]; readonly token_logprobs: readonly number[] } | null;
      readonly finish_reason: 'stop' | 'length';
    },
  ];
  readonly usage: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly total_tokens: number };
}

/**
 * Generate on a sequence from the request's token ids.
 *
 * @param grammar - a grammar the completion must follow (a test forcing a tool call), if any
 * @throws the signal's reason when it is aborted
 */
export async function runTokenCompletion(
  engine: CompletionEngine,
  sequence: LlamaContextSequence,
  request: TokenCompletionRequest,
  grammar: LlamaGrammar | undefined,
  signal: AbortSignal,
): Promise<TokenCompletionBody> {
  await sequence.clearHistory();
  const completion = new LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
  const generated: number[] = [];
  try {
    const bias = new TokenBias(engine.model.tokenizer);
    bias.set(TURN_START_ID as never, 'never');
    bias.set(BOS_ID as never, 'never');
    const { metadata } = await completion.generateCompletionWithMeta(request.prompt as never, {
      signal,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      ...(grammar !== undefined ? { grammar } : {}),
      repeatPenalty: false,
      tokenBias: bias,
      onToken: (tokens) => {
        for (const token of tokens) generated.push(token);
      },
    });
    if (metadata.stopReason === 'eogToken' && generated.at(-1) !== TURN_END_ID) generated.push(TURN_END_ID);
    const finish = metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
    const logprobs =
      request.logprobs === undefined ? null : await answerLogprobs(engine.model, sequence, request.prompt as never, generated as never, request.logprobs);
    return {
      id: `cmpl-${randomBytes(12).toString('base64url')}`,
      object: 'text_completion',
      created: Math.floor(Date.now() / 1000),
      model: engine.modelName,
      choices: [
        {
          index: 0,
          text: engine.model.detokenize(generated as never, false),
          ...(request.returnTokenIds ? { token_ids: generated } : {}),
          logprobs: logprobs === null ? null : { tokens: logprobs.map((l) => l.token), token_logprobs: logprobs.map((l) => l.logprob) },
          finish_reason: finish,
        },
      ],
      usage: { prompt_tokens: request.prompt.length, completion_tokens: generated.length, total_tokens: request.prompt.length + generated.length },
    };
  } finally {
    completion.dispose({ disposeSequence: false });
  }
}
