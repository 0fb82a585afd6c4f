/**
 * What the token conversation needs of a model's tokenizer: text to ids (special tokens such as
 * `<|im_end|>` as their single ids) and ids back to text.
 *
 * @module
 */

/** A model's tokenizer, loaded from its folder. */
export interface TextTokenizer {
  /** Which file it was read from: `tokenizer.json` (Hugging Face) or `tiktoken.model` (Kimi's layout). */
  readonly kind: 'tokenizer.json' | 'tiktoken.model';
  /** The ids of `text`, special tokens as their single ids, no BOS or EOS added. */
  encode(text: string): number[];
  /** The text of `ids`, special tokens written out. */
  decode(ids: readonly number[]): string;
}
