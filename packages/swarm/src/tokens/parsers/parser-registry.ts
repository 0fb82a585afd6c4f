/**
 * The tool-call and reasoning parsers, one line each: a mapped type over the names makes a
 * missing or an extra parser a type error. Adding one is a file and a line.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { hermesToolParser } from './hermes-tool-parser.js';
import { kimiK2ToolParser } from './kimi-k2-tool-parser.js';
import { noneReasoningParser } from './none-reasoning-parser.js';
import { REASONING_PARSER_NAMES, TOOL_CALL_PARSER_NAMES, type ReasoningParserName, type ToolCallParserName } from './parser-names.js';
import { qwen3ReasoningParser } from './qwen3-reasoning-parser.js';
import type { ReasoningParser } from './reasoning-parser.js';
import type { ToolCallParser } from './tool-call-parser.js';

/** Every tool-call parser, by name. */
export const TOOL_CALL_PARSERS: { readonly [N in ToolCallParserName]: ToolCallParser } = {
  hermes: hermesToolParser,
  kimi_k2: kimiK2ToolParser,
};

/** Every reasoning parser, by name. */
export const REASONING_PARSERS: { readonly [N in ReasoningParserName]: ReasoningParser } = {
  qwen3: qwen3ReasoningParser,
  none: noneReasoningParser,
};

/**
 * The tool-call parser named `name`.
 *
 * @throws ParlInputError for a name no parser has
 */
export function toolCallParserNamed(name: string): ToolCallParser {
  if (!(TOOL_CALL_PARSER_NAMES as readonly string[]).includes(name)) throw new ParlInputError('toolCallParser', name, `one of ${TOOL_CALL_PARSER_NAMES.join(', ')}`, undefined, 'PARL_ERR_UNKNOWN_NAME');
  return TOOL_CALL_PARSERS[name as ToolCallParserName];
}

/**
 * The reasoning parser named `name`.
 *
 * @throws ParlInputError for a name no parser has
 */
export function reasoningParserNamed(name: string): ReasoningParser {
  if (!(REASONING_PARSER_NAMES as readonly string[]).includes(name)) throw new ParlInputError('reasoningParser', name, `one of ${REASONING_PARSER_NAMES.join(', ')}`, undefined, 'PARL_ERR_UNKNOWN_NAME');
  return REASONING_PARSERS[name as ReasoningParserName];
}
