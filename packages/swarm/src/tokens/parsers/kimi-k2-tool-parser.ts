/**
 * The `kimi_k2` tool-call parser (vLLM's name): Kimi K2 writes its calls in a section,
 * `<|tool_calls_section_begin|>` then per call `<|tool_call_begin|>functions.NAME:INDEX
 * <|tool_call_argument_begin|>{json}<|tool_call_end|>`, then `<|tool_calls_section_end|>`; the
 * call id is the `functions.NAME:INDEX` the model wrote, the name its part between the last `.`
 * and the `:`, and the text before the section is the content. vLLM also accepts the singular
 * `<|tool_call_section_begin|>`. A call that does not have this shape, or whose arguments are not
 * JSON, is a malformed call (its error goes back to the model).
 *
 * @module
 */
import type { ParsedToolCall, ToolCallParser } from './tool-call-parser.js';

const SECTION_BEGIN = ['<|tool_calls_section_begin|>', '<|tool_call_section_begin|>'];
const SECTION_END = /<\|tool_calls?_section_end\|>/;
const CALL_BEGIN = '<|tool_call_begin|>';
const CALL = /^\s*([^<]+:\d+)\s*<\|tool_call_argument_begin\|>\s*(.*?)\s*<\|tool_call_end\|>\s*$/s;

function callOf(chunk: string, fallbackId: string): ParsedToolCall {
  const m = CALL.exec(chunk);
  if (m === null) return { id: fallbackId, name: '', input: chunk, invalid: `the tool call is not "functions.NAME:INDEX<|tool_call_argument_begin|>{json}<|tool_call_end|>": ${chunk.trim().slice(0, 200)}`, arguments: chunk };
  const id = (m[1] ?? '').trim();
  const args = m[2] ?? '';
  const name = id.split(':')[0]?.split('.').at(-1) ?? '';
  try {
    return { id, name, input: JSON.parse(args), invalid: undefined, arguments: args };
  } catch (err) {
    return { id, name, input: args, invalid: `${name}'s arguments are not JSON (${(err as Error).message}): ${args.slice(0, 200)}`, arguments: args };
  }
}

/** The `kimi_k2` parser. */
export const kimiK2ToolParser: ToolCallParser = {
  parse(text, turn) {
    const begins = SECTION_BEGIN.map((b) => ({ b, at: text.indexOf(b) })).filter((s) => s.at >= 0);
    const first = begins.sort((x, y) => x.at - y.at)[0];
    if (first === undefined) return { content: text, calls: [] };
    const section = text.slice(first.at + first.b.length).split(SECTION_END)[0] ?? '';
    const chunks = section.split(CALL_BEGIN).slice(1);
    return { content: text.slice(0, first.at), calls: chunks.map((c, i) => callOf(c, `call_${turn}_${i}`)) };
  },
};
