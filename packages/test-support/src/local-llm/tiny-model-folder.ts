/**
 * The tiny model's folder as Hugging Face model folders are: a `tokenizer.json` of its byte
 * vocabulary (a byte-level BPE with no merges, so `@huggingface/tokenizers` gives one token per
 * byte, the ids llama.cpp's `gpt2` tokenizer gives the GGUF file) with the ChatML control tokens
 * as added special tokens, and a `tokenizer_config.json` holding the ChatML chat template: what
 * `parl swarm run --token-in --tokenizer DIR` reads.
 *
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BOS_ID, BOS_TEXT, CHATML_TEMPLATE, TURN_END_ID, TURN_END_TEXT, TURN_START_ID, TURN_START_TEXT, vocabularyTokens } from './byte-vocabulary.js';

/** The `tokenizer.json` of the byte vocabulary. */
export function tinyTokenizerJson(): object {
  const tokens = vocabularyTokens();
  const vocab = Object.fromEntries(tokens.slice(0, 256).map((t, id) => [t, id]));
  const added = [
    [BOS_ID, BOS_TEXT],
    [TURN_START_ID, TURN_START_TEXT],
    [TURN_END_ID, TURN_END_TEXT],
  ] as const;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added.map(([id, content]) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab, merges: [] },
  };
}

/** Write `tokenizer.json` and `tokenizer_config.json` (with the ChatML template) into `dir`. */
export async function writeTinyModelFolder(dir: string): Promise<void> {
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson()));
  await writeFile(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({ bos_token: BOS_TEXT, eos_token: TURN_END_TEXT, chat_template: CHATML_TEMPLATE, tokenizer_class: 'PreTrainedTokenizerFast' }, null, 2),
  );
}
