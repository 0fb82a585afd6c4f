/**
 * The `hermes` tool-call parser (vLLM's name): Qwen2.5, Qwen3 and Hermes models write each call
 * as `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, several per completion; the text
 * before the first call is the content. A block whose JSON does not parse, or that names no
 * tool, is a malformed call (its error goes back to the model).
 *
 * @module
 */
import type { ParsedToolCall, ToolCallParser } from './tool-call-parser.js';

const START = '<tool_call>';
const BLOCK = /<tool_call>(.*?)<\/tool_call>|<tool_call>(.*)$/gs;
const NAME = /"name"\s*:\s*"([^"]*)"/;

function callOf(body: string, id: string): ParsedToolCall {
  const text = body.trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { id, name: NAME.exec(text)?.[1] ?? '', input: text, invalid: `the tool call is not JSON (${(err as Error).message}): ${text.slice(0, 200)}`, arguments: text };
  }
  const call = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const name = call['name'];
  const args = call['arguments'] ?? {};
  const argsText = typeof args === 'string' ? args : JSON.stringify(args);
  if (typeof name !== 'string' || name === '') return { id, name: '', input: args, invalid: `the tool call names no tool ("name" missing): ${text.slice(0, 200)}`, arguments: argsText };
  if (typeof args === 'string') {
    try {
      return { id, name, input: JSON.parse(args), invalid: undefined, arguments: args };
    } catch {
      return { id, name, input: args, invalid: `${name}'s arguments are not a JSON object: ${args.slice(0, 200)}`, arguments: args };
    }
  }
  return { id, name, input: args, invalid: undefined, arguments: argsText };
}

/** The `hermes` parser. */
export const hermesToolParser: ToolCallParser = {
  parse(text, turn) {
    const start = text.indexOf(START);
    if (start < 0) return { content: text, calls: [] };
    const calls = [...text.matchAll(BLOCK)].map((m, i) => callOf(m[1] ?? m[2] ?? '', `call_${turn}_${i}`));
    return { content: text.slice(0, start), calls };
  },
};
