/**
 * A `tiktoken.model` tokenizer as Kimi K2 and K2.5 ship theirs: the ranks file (one
 * `BASE64_TOKEN RANK` line per token), the added special tokens of `tokenizer_config.json`'s
 * `added_tokens_decoder`, and Kimi's pre-tokenizer pattern; encoded by `js-tiktoken`, loaded only
 * when a run asks for token in.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { KIMI_PATTERN } from './kimi-pattern.js';
import type { TextTokenizer } from './text-tokenizer.js';

const RANK_LINE = /^([A-Za-z0-9+/]+={0,2}) (\d+)$/;

/** The added tokens of a `tokenizer_config.json` (`added_tokens_decoder`: id → `{content}`), text → id. */
export function addedTokensOf(config: Readonly<Record<string, unknown>>, file: string): Record<string, number> {
  const decoder = config['added_tokens_decoder'];
  if (decoder === undefined) return {};
  if (typeof decoder !== 'object' || decoder === null) throw new ParlInputError('added_tokens_decoder', decoder, 'an object of id → {"content": TOKEN}', file);
  const out: Record<string, number> = {};
  for (const [id, entry] of Object.entries(decoder)) {
    const content = typeof entry === 'object' && entry !== null ? (entry as { content?: unknown }).content : undefined;
    if (!/^\d+$/.test(id) || typeof content !== 'string' || content === '') {
      throw new ParlInputError(`added_tokens_decoder.${id}`, entry, 'an integer id with {"content": TOKEN}', file);
    }
    out[content] = Number(id);
  }
  return out;
}

/**
 * The tokenizer of a `tiktoken.model` file's text and a parsed `tokenizer_config.json`.
 *
 * @param ranks - the text of `tiktoken.model`
 * @param config - the parsed `tokenizer_config.json`
 * @param file - the ranks file's path, for errors
 * @throws ParlInputError for a line that is not `BASE64_TOKEN RANK`
 */
export async function tiktokenTokenizer(ranks: string, config: Readonly<Record<string, unknown>>, file: string): Promise<TextTokenizer> {
  const lines: string[] = [];
  for (const [i, line] of ranks.split('\n').entries()) {
    if (line.trim() === '') continue;
    const m = RANK_LINE.exec(line.trim());
    if (m === null) throw new ParlInputError('tiktoken.model', line.length > 80 ? `${line.slice(0, 80)}…` : line, 'one "BASE64_TOKEN RANK" pair per line', `${file} line ${i + 1}`);
    // js-tiktoken's ranks text: "<ignored> OFFSET TOKEN…" per line.
    lines.push(`r ${m[2]} ${m[1]}`);
  }
  if (lines.length === 0) throw new ParlInputError('tiktoken.model', '', 'at least one "BASE64_TOKEN RANK" line', file);
  const special = addedTokensOf(config, file);
  const { Tiktoken } = await import('js-tiktoken/lite');
  const encoder = new Tiktoken({ pat_str: KIMI_PATTERN, special_tokens: special, bpe_ranks: lines.join('\n') });
  return {
    kind: 'tiktoken.model',
    encode: (text) => encoder.encode(text, 'all'),
    decode: (ids) => encoder.decode([...ids]),
  };
}
