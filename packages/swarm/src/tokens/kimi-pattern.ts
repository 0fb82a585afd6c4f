/**
 * The pre-tokenizer pattern of Kimi's `tiktoken.model` tokenizers (Moonshot's
 * `tokenization_kimi.py`): runs of Han characters on their own, then o200k-style letter, number,
 * punctuation and space pieces with Han taken out of the letter classes. Python's `regex` writes
 * the subtraction as `[…&&[^\p{Han}]]` and the contractions as `(?i:…)`; JavaScript's `u` flag
 * has neither, so the subtraction is a negative look-ahead before each letter and the contractions
 * are spelled in both cases.
 *
 * @module
 */

const han = String.raw`\p{Script=Han}`;
const upper = String.raw`(?:(?!${han})[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}])`;
const lower = String.raw`(?:(?!${han})[\p{Ll}\p{Lm}\p{Lo}\p{M}])`;
const contraction = String.raw`(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?`;

/** Kimi's pre-tokenizer pattern, for a `u`-flag JavaScript regular expression. */
export const KIMI_PATTERN = [
  String.raw`[${han}]+`,
  String.raw`[^\r\n\p{L}\p{N}]?${upper}*${lower}+${contraction}`,
  String.raw`[^\r\n\p{L}\p{N}]?${upper}+${lower}*${contraction}`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^\s\p{L}\p{N}]+[\r\n]*`,
  String.raw`\s*[\r\n]+`,
  String.raw`\s+(?!\S)`,
  String.raw`\s+`,
].join('|');
