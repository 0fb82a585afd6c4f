/**
 * The normal form answers are compared in (spec §10.2): case folded, whitespace collapsed,
 * surrounding punctuation and the articles `a`, `an`, `the` removed.
 *
 * @module
 */

/**
 * `text` normalised for comparison.
 *
 * @example
 * ```ts
 * normaliseAnswer('  The  Eiffel Tower. '); // 'eiffel tower'
 * ```
 */
export function normaliseAnswer(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
