/**
 * Width rules: how the policy's width choice turns into a group size k once it knows how many
 * subtasks m it hands out. A rule is `"N"` (exactly N sub-agents), `"m"`, `"2m"`, `"m/4"`, … (a
 * multiple or fraction of m, rounded up) or `"max"` (the group limit).
 *
 * @module
 */
import { ParlInputError } from '@parl/core';

/** A parsed width rule. */
export type WidthRule =
  | { readonly kind: 'absolute'; readonly k: number }
  | { readonly kind: 'relative'; readonly times: number; readonly per: number }
  | { readonly kind: 'max' };

const RELATIVE = /^(\d*)m(?:\/(\d+))?$/;

/**
 * Parse a width rule such as `"1"`, `"m/4"`, `"m"`, `"2m"` or `"max"`.
 *
 * @throws {@link @parl/core!ParlInputError} naming the field and the accepted forms
 *
 * @example
 * ```ts
 * widthOf(parseWidthRule('m/4'), 10, 100); // 3 sub-agents for 10 subtasks
 * ```
 */
export function parseWidthRule(text: unknown, field = 'widthGrid'): WidthRule {
  const expected = 'a width rule: "N" (N sub-agents, N ≥ 1), "m", "2m", "m/4" (a multiple or fraction of the m subtasks handed out) or "max"';
  if (typeof text !== 'string') throw new ParlInputError(field, text, expected);
  if (text === 'max') return { kind: 'max' };
  if (/^\d+$/.test(text)) {
    const k = Number(text);
    if (k >= 1) return { kind: 'absolute', k };
  }
  const rel = RELATIVE.exec(text);
  if (rel !== null) {
    const times = rel[1] === undefined || rel[1] === '' ? 1 : Number(rel[1]);
    const per = rel[2] === undefined ? 1 : Number(rel[2]);
    if (times >= 1 && per >= 1) return { kind: 'relative', times, per };
  }
  throw new ParlInputError(field, text, expected);
}

/** The group size k a rule gives for m handed-out subtasks, clamped to 1..maxGroup. */
export function widthOf(rule: WidthRule, m: number, maxGroup: number): number {
  const k = rule.kind === 'absolute' ? rule.k : rule.kind === 'max' ? maxGroup : Math.ceil((rule.times * m) / rule.per);
  return k < 1 ? 1 : k > maxGroup ? maxGroup : k;
}
