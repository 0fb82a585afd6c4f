/**
 * The grammar of a JSON answer written the way the chat template renders it back: compact (no
 * whitespace between tokens), strings over printable ASCII with only the escapes `JSON.stringify`
 * writes (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`), numbers as `JSON.stringify` writes them. A
 * model trained on its own template writes its tool calls that way; here the grammar makes the
 * tiny model do so, so that a conversation's next prompt begins, token for token, with the
 * previous prompt and completion — what a trainer's token trajectory (spec §10.4) relies on, as
 * with vLLM serving a model on its own template.
 *
 * node-llama-cpp's JSON-schema grammar (3.21.1, pinned) allows optional spaces and newlines between
 * tokens, `\/` and `\uXXXX` escapes, any non-ASCII character, and numbers with exponents of up to
 * 16 digits (`1e999` parses to Infinity); its rules are rewritten here, and a grammar whose rules
 * are not the expected ones is refused, never passed on half-rewritten.
 *
 * @module
 */
import type { GbnfJsonSchema, Llama, LlamaGrammar } from 'node-llama-cpp';

/** node-llama-cpp's string-character rule, as 3.21.1 writes it. */
const STRING_CHAR_RULE = 'string-char-rule ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ["\\\\/bfnrt] | "\\\\u" [0-9a-fA-F]{4}';
/** Printable ASCII but `"` and `\`, or an escape `JSON.stringify` writes. */
const CANONICAL_STRING_CHAR_RULE = 'string-char-rule ::= [ !#-\\[\\]-~] | "\\\\" ["\\\\bfnrt]';

/** node-llama-cpp's number rules, as 3.21.1 writes them, and their canonical forms: what `JSON.stringify` writes, at most 15 significant digits (exact in a double), no exponent, no `-0`, no trailing fractional zero. */
const NUMBER_RULES: ReadonlyMap<string, string> = new Map([
  [
    'integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15}) ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?',
    'integer-number-rule ::= "0" | "-"? [1-9] [0-9]{0,8}',
  ],
  [
    'fractional-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? ("0" | [1-9] [0-9]{0,15}))?',
    'fractional-number-rule ::= ("0" | "-"? [1-9] [0-9]{0,8}) ("." [0-9]{0,5} [1-9])? | "-0." [0-9]{0,5} [1-9]',
  ],
]);

/**
 * Rewrite a GBNF grammar from node-llama-cpp's JSON-schema generator into its compact canonical form.
 *
 * @throws Error when the grammar is not in the shape this rewrite knows (another node-llama-cpp version)
 */
export function compactJsonGbnf(grammar: string): string {
  const lines = grammar.split('\n').map((line) => {
    if (line.startsWith('string-char-rule ::=')) {
      if (line !== STRING_CHAR_RULE) throw new Error(`unexpected string rule from node-llama-cpp's JSON grammar: ${line}`);
      return CANONICAL_STRING_CHAR_RULE;
    }
    if (/^(integer|fractional)-number-rule ::= /.test(line)) {
      const canonical = NUMBER_RULES.get(line);
      if (canonical === undefined) throw new Error(`unexpected number rule from node-llama-cpp's JSON grammar: ${line}`);
      return canonical;
    }
    if (/^whitespace-[\w-]+-rule ::= /.test(line)) return line.replace(/::= .*$/, '::= ""');
    if (/^comma-whitespace-[\w-]+-rule ::= /.test(line)) return line.replace(/::= .*$/, '::= ","');
    return line.replaceAll(' [ ]?', '');
  });
  const text = lines.join('\n');
  const left = lines.slice(1).find((l) => /\[ \]\?|\[\\n\]/.test(l));
  if (left !== undefined) throw new Error(`whitespace left in the compact JSON grammar: ${left}`);
  return text;
}

/** The compact canonical grammar of `schema` (see the module). */
export async function compactJsonGrammar(llama: Llama, schema: Readonly<GbnfJsonSchema>): Promise<LlamaGrammar> {
  const generated = await llama.createGrammarForJsonSchema(schema as never);
  return llama.createGrammar({ grammar: compactJsonGbnf(generated.grammar), stopGenerationTriggers: ['\n\n\n\n'], trimWhitespaceSuffix: true });
}
