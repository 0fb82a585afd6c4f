/**
 * The tiny model's vocabulary: one token per byte, spelled as GPT-2's byte-level tokenizer spells
 * bytes (so llama.cpp's `gpt2` tokenizer with an empty merges list round-trips any text exactly),
 * then the ChatML control tokens.
 *
 * @module
 */

/** Text of the beginning-of-text control token. */
export const BOS_TEXT = '<|endoftext|>';
/** Text of the ChatML turn-start control token. */
export const TURN_START_TEXT = '<|im_start|>';
/** Text of the ChatML turn-end control token, also the end-of-generation token. */
export const TURN_END_TEXT = '<|im_end|>';

/** Token ids of the control tokens (they follow the 256 byte tokens). */
export const BOS_ID = 256;
/** Id of {@link TURN_START_TEXT}. */
export const TURN_START_ID = 257;
/** Id of {@link TURN_END_TEXT} (the EOS id). */
export const TURN_END_ID = 258;
/** Number of tokens in the vocabulary. */
export const VOCABULARY_SIZE = 259;

/** llama.cpp token types. */
const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_CONTROL = 3;

/** GPT-2's byte-to-unicode table: printable bytes stand for themselves, the rest map above 255. */
function gpt2ByteSpelling(): string[] {
  const direct = new Set<number>();
  for (let b = 0x21; b <= 0x7e; b++) direct.add(b);
  for (let b = 0xa1; b <= 0xac; b++) direct.add(b);
  for (let b = 0xae; b <= 0xff; b++) direct.add(b);
  const spelling: string[] = [];
  let next = 0;
  for (let b = 0; b < 256; b++) {
    if (direct.has(b)) spelling.push(String.fromCodePoint(b));
    else spelling.push(String.fromCodePoint(256 + next++));
  }
  return spelling;
}

/** The token texts, in id order. */
export function vocabularyTokens(): string[] {
  return [...gpt2ByteSpelling(), BOS_TEXT, TURN_START_TEXT, TURN_END_TEXT];
}

/** The llama.cpp token type of each token, in id order. */
export function vocabularyTokenTypes(): number[] {
  return vocabularyTokens().map((_, id) => (id < 256 ? TOKEN_TYPE_NORMAL : TOKEN_TYPE_CONTROL));
}

/** The ChatML chat template (Jinja), as ChatML models state it in `tokenizer.chat_template`. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
