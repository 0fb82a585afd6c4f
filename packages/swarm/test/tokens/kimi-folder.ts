/**
 * A small model folder in Kimi K2's layout, written by the test: `tiktoken.model` (one
 * `BASE64_TOKEN RANK` line per token: the 256 bytes, then a few merges), `tokenizer_config.json`
 * whose `added_tokens_decoder` holds Kimi's special tokens, and a `chat_template.jinja` in the
 * shape of Kimi K2's (tools declared in a system turn, tool calls in a tool-call section, tool
 * results as `## Return of ID` system turns). No `tokenizer.json`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Kimi's special tokens, with this folder's ids. */
export const KIMI_SPECIALS = {
  '[BOS]': 300,
  '[EOS]': 301,
  '<|im_end|>': 302,
  '<|im_user|>': 303,
  '<|im_assistant|>': 304,
  '<|im_system|>': 305,
  '<|im_middle|>': 306,
  '<|tool_calls_section_begin|>': 307,
  '<|tool_calls_section_end|>': 308,
  '<|tool_call_begin|>': 309,
  '<|tool_call_argument_begin|>': 310,
  '<|tool_call_end|>': 311,
} as const;

/** Merges after the 256 byte tokens, in rank order (each one's parts ranked before it); `o中` crosses from Latin into Han, which Kimi's pattern never lets a merge do. */
export const KIMI_MERGES = ['he', 'll', 'llo', 'hello', ' w', 'or', ' wor', 'ld', ' world', '中', '文', '中文', 'o中'];

const TEMPLATE = `{%- if tools -%}<|im_system|>tool_declare<|im_middle|>{{ tools | tojson }}<|im_end|>{%- endif -%}
{%- for message in messages -%}
{%- if message.role == 'system' -%}<|im_system|>system<|im_middle|>{{ message.content }}<|im_end|>
{%- elif message.role == 'user' -%}<|im_user|>user<|im_middle|>{{ message.content }}<|im_end|>
{%- elif message.role == 'tool' -%}<|im_system|>tool<|im_middle|>## Return of {{ message.tool_call_id }}
{{ message.content }}<|im_end|>
{%- else -%}<|im_assistant|>assistant<|im_middle|>{{ message.content }}
{%- if message.tool_calls -%}<|tool_calls_section_begin|>
{%- for tc in message.tool_calls -%}<|tool_call_begin|>{{ tc.id }}<|tool_call_argument_begin|>{% if tc.function.arguments is string %}{{ tc.function.arguments }}{% else %}{{ tc.function.arguments | tojson }}{% endif %}<|tool_call_end|>
{%- endfor -%}<|tool_calls_section_end|>
{%- endif -%}<|im_end|>
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}<|im_assistant|>assistant<|im_middle|>{%- endif -%}`;

/** Write the folder into `dir`. */
export async function writeKimiFolder(dir: string): Promise<void> {
  const tokens = [...Array.from({ length: 256 }, (_, b) => Buffer.from([b])), ...KIMI_MERGES.map((m) => Buffer.from(m, 'utf8'))];
  await writeFile(join(dir, 'tiktoken.model'), tokens.map((t, rank) => `${t.toString('base64')} ${rank}\n`).join(''));
  const decoder = Object.fromEntries(Object.entries(KIMI_SPECIALS).map(([content, id]) => [String(id), { content, special: true }]));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ added_tokens_decoder: decoder, bos_token: '[BOS]', eos_token: '[EOS]', tokenizer_class: 'TikTokenTokenizer' }, null, 2));
  await writeFile(join(dir, 'chat_template.jinja'), TEMPLATE);
}
