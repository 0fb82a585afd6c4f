/**
 * `--token-in`'s settings as a run's options give them (`--tokenizer`, `--chat-template`,
 * `--tool-call-parser`, `--reasoning-parser`, `--max-model-len`), the same on the coordinator of
 * `parl swarm run` and on a `parl worker` that runs its jobs.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { SwarmRunOptions } from '../options.js';
import type { TokenInSource } from '../tokens/token-in-model.js';

/** The options token in is read from. */
export type TokenInOptions = Pick<SwarmRunOptions, 'tokenizer' | 'chatTemplate' | 'toolCallParser' | 'reasoningParser' | 'maxModelLen'>;

/**
 * What token in loads, from the run's options (the parsers' defaults: `hermes`, `none`).
 *
 * @throws {@link @parl/core!ParlInputError} without `--tokenizer`
 */
export function tokenInSourceOf(options: TokenInOptions): TokenInSource {
  if (options.tokenizer === undefined) throw new ParlInputError('--tokenizer', undefined, 'the orchestrator model\'s folder (tokenizer.json, or tiktoken.model with tokenizer_config.json) for --token-in');
  return {
    tokenizer: options.tokenizer,
    chatTemplate: options.chatTemplate,
    toolCallParser: options.toolCallParser ?? 'hermes',
    reasoningParser: options.reasoningParser ?? 'none',
    maxModelLen: options.maxModelLen,
  };
}
