/**
 * What the model is made to write when tools are offered: JSON that is either a final answer
 * `{"content": string}` or calls `{"tool_calls": [{"name": ..., "arguments": {...}}, ...]}`, forced
 * by node-llama-cpp's JSON-schema grammar (a tiny random model never finds a chat wrapper's
 * function-call syntax by itself). Each tool's parameters schema is translated into the subset the
 * grammar enforces; a keyword it cannot enforce is refused by name, never dropped.
 *
 * @module
 */
import type { GbnfJsonSchema } from 'node-llama-cpp';
import { ChatRequestError } from './chat-request-error.js';
import type { ChatTool, ChatToolChoice } from './chat-request.js';

/** Keywords that only describe: they change nothing the grammar must enforce. */
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', 'default', 'examples', 'required', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const GRAMMAR_FORMATS = new Set(['date-time', 'time', 'date']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function count(schema: Record<string, unknown>, key: string, field: string): number | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ChatRequestError(`${field}.${key}`, value, 'a non-negative integer');
  }
  return value;
}

/**
 * Translate a JSON Schema into the grammar's schema.
 *
 * @param schema - the schema from the request
 * @param field - its path in the request, for errors
 * @throws ChatRequestError naming the first keyword or value the grammar cannot enforce
 */
export function grammarSchemaOf(schema: unknown, field: string): GbnfJsonSchema {
  if (!isRecord(schema)) throw new ChatRequestError(field, schema, 'a JSON Schema object');
  for (const key of Object.keys(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (key === 'minimum' && (schema.minimum as number) <= Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && (schema.maximum as number) >= Number.MAX_SAFE_INTEGER) continue;
    if (key === 'format' && !GRAMMAR_FORMATS.has(schema.format as string)) continue;
    if (
      ![
        'type', 'properties', 'additionalProperties', 'items', 'minItems', 'maxItems', 'enum', 'const',
        'oneOf', 'anyOf', 'minLength', 'maxLength', 'format', 'minProperties', 'maxProperties',
      ].includes(key)
    ) {
      throw new ChatRequestError(`${field}.${key}`, schema[key], 'only keywords the grammar enforces (type, properties, items, enum, const, oneOf, anyOf, min/maxLength, min/maxItems)');
    }
  }
  const description = typeof schema.description === 'string' ? { description: schema.description } : {};
  if (schema.const !== undefined) {
    const value = schema.const;
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
      throw new ChatRequestError(`${field}.const`, value, 'a string, number, boolean or null');
    }
    return { const: value as string | number | boolean | null, ...description };
  }
  if (schema.enum !== undefined) {
    const values = schema.enum;
    if (!Array.isArray(values) || values.length === 0 || values.some((v) => v !== null && !['string', 'number', 'boolean'].includes(typeof v))) {
      throw new ChatRequestError(`${field}.enum`, values, 'a non-empty array of strings, numbers, booleans or null');
    }
    return { enum: values as (string | number | boolean | null)[], ...description };
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives !== undefined) {
    const key = schema.oneOf !== undefined ? 'oneOf' : 'anyOf';
    if (!Array.isArray(alternatives) || alternatives.length === 0) {
      throw new ChatRequestError(`${field}.${key}`, alternatives, 'a non-empty array of schemas');
    }
    return { oneOf: alternatives.map((s, i) => grammarSchemaOf(s, `${field}.${key}[${i}]`)), ...description };
  }
  const type = schema.type;
  if (type === 'object') {
    const properties = schema.properties ?? {};
    if (!isRecord(properties)) throw new ChatRequestError(`${field}.properties`, properties, 'an object of schemas');
    const additional = schema.additionalProperties;
    if (additional !== undefined && additional !== false) {
      throw new ChatRequestError(`${field}.additionalProperties`, additional, 'false or absent (the grammar writes the listed properties only)');
    }
    const translated: Record<string, GbnfJsonSchema> = {};
    for (const [name, sub] of Object.entries(properties)) translated[name] = grammarSchemaOf(sub, `${field}.properties.${name}`);
    const minProperties = count(schema, 'minProperties', field);
    const maxProperties = count(schema, 'maxProperties', field);
    return {
      type: 'object',
      properties: translated,
      additionalProperties: false,
      ...(minProperties !== undefined ? { minProperties } : {}),
      ...(maxProperties !== undefined ? { maxProperties } : {}),
      ...description,
    };
  }
  if (type === 'array') {
    const minItems = count(schema, 'minItems', field);
    const maxItems = count(schema, 'maxItems', field);
    return {
      type: 'array',
      ...(schema.items !== undefined ? { items: grammarSchemaOf(schema.items, `${field}.items`) } : {}),
      ...(minItems !== undefined ? { minItems } : {}),
      ...(maxItems !== undefined ? { maxItems } : {}),
      ...description,
    };
  }
  if (type === 'string') {
    if (typeof schema.format === 'string' && GRAMMAR_FORMATS.has(schema.format)) {
      return { type: 'string', format: schema.format as 'date-time' | 'time' | 'date', ...description };
    }
    const minLength = count(schema, 'minLength', field);
    const maxLength = count(schema, 'maxLength', field);
    return {
      type: 'string',
      ...(minLength !== undefined ? { minLength } : {}),
      ...(maxLength !== undefined ? { maxLength } : {}),
      ...description,
    };
  }
  if (typeof type === 'string' && TYPES.has(type)) {
    return { type: type as 'number' | 'integer' | 'boolean' | 'null', ...description };
  }
  if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && TYPES.has(t) && t !== 'object' && t !== 'array')) {
    return { type: type as ('string' | 'number' | 'integer' | 'boolean' | 'null')[], ...description };
  }
  throw new ChatRequestError(`${field}.type`, type, 'one of string, number, integer, boolean, null, object, array (or a list of the scalar ones)');
}

/**
 * The grammar schema of a whole response under the request's tools and tool choice, or undefined
 * when the answer is free text (no tools, or `tool_choice: "none"`).
 *
 * @param tools - the request's tools
 * @param choice - the request's tool choice
 * @param maxCalls - most calls one response may make (1 when `parallel_tool_calls` is false)
 */
export function responseSchemaOf(tools: readonly ChatTool[], choice: ChatToolChoice, maxCalls: number): GbnfJsonSchema | undefined {
  if (choice === 'none' || tools.length === 0) return undefined;
  const offered = typeof choice === 'object' ? tools.filter((tool) => tool.name === choice.name) : tools;
  const calls = offered.map((tool): GbnfJsonSchema => {
    const index = tools.indexOf(tool);
    return {
      type: 'object',
      properties: {
        name: { const: tool.name },
        arguments: grammarSchemaOf(tool.parameters, `tools[${index}].function.parameters`),
      },
    };
  });
  const toolCalls: GbnfJsonSchema = {
    type: 'object',
    properties: {
      tool_calls: { type: 'array', items: calls.length === 1 ? calls[0]! : { oneOf: calls }, minItems: 1, maxItems: maxCalls },
    },
  };
  if (choice !== 'auto') return toolCalls;
  return { oneOf: [{ type: 'object', properties: { content: { type: 'string' } } }, toolCalls] };
}

/** What a response under {@link responseSchemaOf} said. */
export type ParsedResponse =
  | { readonly kind: 'content'; readonly content: string }
  | { readonly kind: 'tool_calls'; readonly calls: readonly { readonly name: string; readonly arguments: unknown }[] };

/**
 * Read the JSON the grammar forced. Returns undefined when it is not complete JSON of either shape
 * (generation stopped by `max_tokens`).
 *
 * @param text - the generated text
 */
export function parseForcedResponse(text: string): ParsedResponse | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (typeof value.content === 'string') return { kind: 'content', content: value.content };
  if (Array.isArray(value.tool_calls)) {
    const calls = value.tool_calls.filter(isRecord).map((call) => ({ name: String(call.name), arguments: call.arguments }));
    return { kind: 'tool_calls', calls };
  }
  return undefined;
}
