/**
 * The nesting bound on OTLP attribute values (`arrayValue` / `kvlistValue` inside each other):
 * decoding and writing out a value nested thousands deep would exhaust the stack, so a request
 * holding one is refused by name before anything reads it.
 *
 * @module
 */

/**
 * Deepest nesting of `AnyValue`s accepted in one attribute (a plain value is depth 1, a list of
 * plain values depth 2). OpenTelemetry SDKs write flat attributes; GenAI message lists nest a few
 * levels.
 */
export const MAX_ATTRIBUTE_DEPTH = 64;

function children(value: unknown): readonly unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  const v = value as Record<string, unknown>;
  const arr = v['arrayValue'];
  if (typeof arr === 'object' && arr !== null) {
    const values = (arr as Record<string, unknown>)['values'];
    return Array.isArray(values) ? values : [];
  }
  const kv = v['kvlistValue'];
  if (typeof kv === 'object' && kv !== null) {
    const values = (kv as Record<string, unknown>)['values'];
    if (!Array.isArray(values)) return [];
    return values.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)['value'] : undefined));
  }
  return [];
}

/**
 * The key of the first attribute of `attributes` (an OTLP key/value list) nested deeper than
 * `limit`, or undefined when none is. Walks with its own stack, so any depth is measured safely.
 */
export function tooDeepAttribute(attributes: unknown, limit: number = MAX_ATTRIBUTE_DEPTH): string | undefined {
  if (!Array.isArray(attributes)) return undefined;
  for (const entry of attributes as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const stack: [unknown, number][] = [[e['value'], 1]];
    while (stack.length > 0) {
      const [value, depth] = stack.pop() as [unknown, number];
      if (depth > limit) return typeof e['key'] === 'string' ? e['key'] : '(no key)';
      for (const child of children(value)) stack.push([child, depth + 1]);
    }
  }
  return undefined;
}
