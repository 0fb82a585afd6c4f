/**
 * OTLP JSON attributes: `[{ "key": "gen_ai.operation.name", "value": { "stringValue": "chat" } }]`.
 *
 * @module
 */

/** A decoded attribute value. */
export type AttributeValue = string | number | boolean | readonly AttributeValue[] | { readonly [key: string]: AttributeValue } | null;

/**
 * Decode an OTLP `AnyValue` (`stringValue`, `boolValue`, `intValue`, `doubleValue`,
 * `arrayValue`, `kvlistValue`, `bytesValue`).
 *
 * @returns the value, or undefined when it has none of the known value fields
 */
export function decodeAnyValue(value: unknown): AttributeValue | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v['stringValue'] === 'string') return v['stringValue'];
  if (typeof v['boolValue'] === 'boolean') return v['boolValue'];
  if ('intValue' in v) {
    const n = typeof v['intValue'] === 'string' ? Number(v['intValue']) : v['intValue'];
    return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
  }
  if ('doubleValue' in v) {
    const n = v['doubleValue'];
    return typeof n === 'number' ? n : typeof n === 'string' ? Number(n) : undefined;
  }
  if (typeof v['bytesValue'] === 'string') return v['bytesValue'];
  const arr = v['arrayValue'];
  if (typeof arr === 'object' && arr !== null) {
    const values = (arr as Record<string, unknown>)['values'];
    if (!Array.isArray(values)) return [];
    return values.map((x) => decodeAnyValue(x) ?? null);
  }
  const kv = v['kvlistValue'];
  if (typeof kv === 'object' && kv !== null) {
    const out: Record<string, AttributeValue> = {};
    const values = (kv as Record<string, unknown>)['values'];
    if (Array.isArray(values)) {
      for (const entry of values) {
        if (typeof entry === 'object' && entry !== null && typeof (entry as Record<string, unknown>)['key'] === 'string') {
          const e = entry as Record<string, unknown>;
          out[e['key'] as string] = decodeAnyValue(e['value']) ?? null;
        }
      }
    }
    return out;
  }
  if (Object.keys(v).length === 0) return null;
  return undefined;
}

/**
 * Decode an OTLP attribute list into a map. Entries that cannot be read (no string key, a value
 * of an unknown type) are left out and described in `warnings`, never fatal.
 */
export function decodeAttributes(value: unknown, warnings: string[]): Map<string, AttributeValue> {
  const out = new Map<string, AttributeValue>();
  if (value === undefined || value === null) return out;
  if (!Array.isArray(value)) {
    warnings.push(`attributes is not a key/value list (got ${typeof value}); ignored`);
    return out;
  }
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null || typeof (entry as Record<string, unknown>)['key'] !== 'string') {
      warnings.push(`an attribute without a string key was ignored`);
      continue;
    }
    const e = entry as Record<string, unknown>;
    const key = e['key'] as string;
    const decoded = decodeAnyValue(e['value']);
    if (decoded === undefined) {
      const kinds = typeof e['value'] === 'object' && e['value'] !== null ? Object.keys(e['value']).join(', ') : typeof e['value'];
      warnings.push(`attribute ${JSON.stringify(key)} has a value of unknown type (${kinds}); ignored`);
      continue;
    }
    out.set(key, decoded);
  }
  return out;
}
