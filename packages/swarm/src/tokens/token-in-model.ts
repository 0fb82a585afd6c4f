/**
 * What token in needs of the orchestrator's model, loaded once per run before any request: its
 * folder's tokenizer and chat template, its tool-call and reasoning parsers, its context length.
 *
 * @module
 */
import { loadModelFolder, type ModelFolder, type ModelFolderSource } from './model-folder.js';
import { reasoningParserNamed, toolCallParserNamed } from './parsers/parser-registry.js';
import type { ReasoningParser } from './parsers/reasoning-parser.js';
import type { ToolCallParser } from './parsers/tool-call-parser.js';

/** The settings token in is loaded from (`--tokenizer`, `--chat-template`, `--tool-call-parser`, `--reasoning-parser`, `--max-model-len`). */
export interface TokenInSource {
  /** The model folder. */
  readonly tokenizer: string;
  /** A chat template file that overrides the folder's. */
  readonly chatTemplate?: string | undefined;
  /** The tool-call parser's name (`hermes`, `kimi_k2`). */
  readonly toolCallParser: string;
  /** The reasoning parser's name (`qwen3`, `none`). */
  readonly reasoningParser: string;
  /** The model's context length: a call whose prompt would reach it ends the episode (`end_reason: "context"`). */
  readonly maxModelLen?: number | undefined;
}

/** The orchestrator's model as token in uses it. */
export interface TokenInModel {
  readonly folder: ModelFolder;
  readonly toolCallParser: ToolCallParser;
  readonly reasoningParser: ReasoningParser;
  /** The context length, when given. */
  readonly maxModelLen: number | undefined;
}

/**
 * Load and check everything token in needs.
 *
 * @throws ParlInputError for an unknown parser, a folder that cannot be read, a template that does not render
 */
export async function loadTokenInModel(source: TokenInSource): Promise<TokenInModel> {
  return tokenInModelWith(source, loadModelFolder);
}

/**
 * {@link loadTokenInModel} with the folder read by `loadFolder` (`parl worker` passes its cache:
 * each folder is read once per process, the parsers and the context length are the job's).
 *
 * @throws ParlInputError as {@link loadTokenInModel} does
 */
export async function tokenInModelWith(source: TokenInSource, loadFolder: (source: ModelFolderSource) => Promise<ModelFolder>): Promise<TokenInModel> {
  const toolCallParser = toolCallParserNamed(source.toolCallParser);
  const reasoningParser = reasoningParserNamed(source.reasoningParser);
  const folder = await loadFolder({ tokenizer: source.tokenizer, chatTemplate: source.chatTemplate });
  return { folder, toolCallParser, reasoningParser, maxModelLen: source.maxModelLen };
}
