/**
 * The names of the tool-call and reasoning parsers, as vLLM names them (`--tool-call-parser`,
 * `--reasoning-parser`): a tiny module, so that the option table can list them without loading a
 * parser.
 *
 * @module
 */

/** Tool-call parsers: `hermes` (Qwen2.5, Qwen3, Hermes: `<tool_call>{json}</tool_call>`), `kimi_k2` (Kimi K2's tool-call sections). */
export const TOOL_CALL_PARSER_NAMES = ['hermes', 'kimi_k2'] as const;

/** A tool-call parser's name. */
export type ToolCallParserName = (typeof TOOL_CALL_PARSER_NAMES)[number];

/** Reasoning parsers: `qwen3` (`<think>…</think>`), `none` (no reasoning is split off). */
export const REASONING_PARSER_NAMES = ['qwen3', 'none'] as const;

/** A reasoning parser's name. */
export type ReasoningParserName = (typeof REASONING_PARSER_NAMES)[number];
