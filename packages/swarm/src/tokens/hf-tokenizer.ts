/**
 * A `tokenizer.json` tokenizer (Qwen, Llama, DeepSeek…) through `@huggingface/tokenizers`,
 * loaded only when a run asks for token in.
 *
 * @module
 */
import type { TextTokenizer } from './text-tokenizer.js';

/**
 * The tokenizer of a parsed `tokenizer.json` and `tokenizer_config.json`.
 *
 * @param tokenizerJson - the parsed `tokenizer.json`
 * @param config - the parsed `tokenizer_config.json` (`{}` when the folder has none)
 */
export async function hfTokenizer(tokenizerJson: object, config: object): Promise<TextTokenizer> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizer = new Tokenizer(tokenizerJson, config);
  return {
    kind: 'tokenizer.json',
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids,
    // The library refuses an empty list; no ids are no text (a completion that is only its end token).
    decode: (ids) => (ids.length === 0 ? '' : tokenizer.decode([...ids], { skip_special_tokens: false, clean_up_tokenization_spaces: false })),
  };
}
