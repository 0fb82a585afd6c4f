/**
 * The one error for a settings key that is not a setting (`env.famly`, `optimiser`, a grid key
 * `__proto__`): it names the KEY, suggests the closest known one (core's typo rule,
 * {@link @parl/core!suggestField}) and lists the known ones, so a typo never falls back to a
 * default in silence.
 *
 * @module
 */
import { ParlInputError, fieldPath, suggestField } from '@parl/core';

/**
 * The error for `key`, found at `field` (the group it sits in: `env`, `''` for the top level),
 * which is none of `known`.
 *
 * @example
 * ```ts
 * unknownSettingError('env', 'famly', ['family', 'budget']).message;
 * // 'env.famly must be a known setting of env (did you mean env.family?; known: family, budget), got "famly"'
 * ```
 */
export function unknownSettingError(field: string, key: string, known: readonly string[]): ParlInputError {
  const path = field === '' ? key : fieldPath(field, key);
  const suggestion = suggestField(key, known);
  const where = field === '' ? 'a known setting' : `a known setting of ${field}`;
  const hint = suggestion === undefined ? '' : `did you mean ${field === '' ? suggestion : fieldPath(field, suggestion)}?; `;
  return new ParlInputError(path, key, `${where} (${hint}known: ${known.join(', ')})`);
}
