/**
 * The text agents actually exchanged, taken out of a framework's capture format: message
 * contents, tool arguments and tool results. The envelopes around them — LangChain's serialised
 * constructor objects (`lc`, `type`, `id`, `kwargs`), role wrappers, content-part types, ids,
 * usage and model metadata — are the same in every message, so comparing them would find quotes
 * nobody made.
 *
 * @module
 */

/**
 * Keys whose values are never exchanged text: serialisation envelopes, roles and types, metadata.
 * Keys ending in `id` / `Id` / `_id` / `ids` (ids of runs, calls, messages) are left out too.
 */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  'lc',
  'type',
  'role',
  'id',
  'ids',
  'lc_serializable',
  'lc_kwargs',
  'lc_namespace',
  'response_metadata',
  'usage_metadata',
  'usage',
  'model',
  'model_name',
  'modelId',
  'finish_reason',
  'finishReason',
  'providerMetadata',
  'providerOptions',
  'provider_metadata',
  'mimeType',
  'mime_type',
  'mediaType',
  'status',
  'index',
  'toolName',
  'tool_name',
  'sdk_span_type',
  'createdAt',
  'created_at',
  'updatedAt',
  'timestamp',
]);

/** An id-like key: `tool_call_id`, `toolCallId`, `run_id`, `parentRunIds`. */
const ID_KEY = /(?:^|_)ids?$|[a-z]Ids?$/;

/** Objects and arrays visited at most this deep inside one value (deeper text is left out, bounding the walk). */
const MAX_DEPTH = 64;

/** A string that may hold JSON (frameworks put serialised messages in OTLP string attributes). */
function looksLikeJson(text: string): boolean {
  const c = text.charCodeAt(0);
  return c === 0x7b /* { */ || c === 0x5b /* [ */;
}

/**
 * The exchanged text in a captured value, pieces joined by newlines, stopping once `limit`
 * characters are collected (the walk is bounded by the value's size and by `limit`). Strings that
 * hold JSON are parsed and walked too; numbers and booleans are not text anybody wrote.
 * Undefined when nothing is left.
 *
 * @param value - a span's captured input or output as the format holds it (string, object, array)
 * @param limit - the most characters kept
 *
 * @example
 * ```ts
 * exchangedText({ lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'Find the capital of Peru' } });
 * // 'Find the capital of Peru'
 * ```
 */
export function exchangedText(value: unknown, limit: number): string | undefined {
  const parts: string[] = [];
  let length = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0 && length < limit) {
    const { value: v, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof v === 'string') {
      const text = v.trim();
      if (text === '') continue;
      if (looksLikeJson(text) && depth < MAX_DEPTH) {
        const parsed = parseJson(text);
        if (parsed !== undefined && typeof parsed === 'object' && parsed !== null) {
          stack.push({ value: parsed, depth: depth + 1 });
          continue;
        }
      }
      parts.push(text);
      length += text.length + 1;
      continue;
    }
    if (typeof v !== 'object' || v === null || depth >= MAX_DEPTH) continue;
    // Pushed in reverse so that pieces come out in document order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth: depth + 1 });
      continue;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    // A message's `name` is its speaker, not what it said.
    const isMessage = 'content' in obj || 'parts' in obj;
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k] as string;
      if (ENVELOPE_KEYS.has(key) || ID_KEY.test(key) || (isMessage && key === 'name')) continue;
      stack.push({ value: obj[key], depth: depth + 1 });
    }
  }
  if (parts.length === 0) return undefined;
  const text = parts.join('\n');
  return text.length > limit ? text.slice(0, limit) : text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON after all (or nested too deep to parse): the string is text.
    return undefined;
  }
}
