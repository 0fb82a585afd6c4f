/**
 * A model folder as Hugging Face model folders are downloaded: the tokenizer (`tokenizer.json`,
 * or Kimi's `tiktoken.model` with `tokenizer_config.json` and no `tokenizer.json`) and the chat
 * template (`tokenizer_config.json`'s `chat_template`, or `chat_template.jinja` beside it; a
 * `--chat-template` file overrides both). Everything is checked here, before any request: a
 * folder that cannot be read, a template that does not parse or render, is an input error.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError } from '@parl/core';
import { chatTemplate, type ChatTemplate } from './chat-template.js';
import { hfTokenizer } from './hf-tokenizer.js';
import type { TextTokenizer } from './text-tokenizer.js';
import { tiktokenTokenizer } from './tiktoken-tokenizer.js';

/** A model folder's tokenizer and chat template. */
export interface ModelFolder {
  /** The folder. */
  readonly dir: string;
  readonly tokenizer: TextTokenizer;
  readonly template: ChatTemplate;
}

/** Where the folder and the template come from (`--tokenizer`, `--chat-template`). */
export interface ModelFolderSource {
  /** The model folder. */
  readonly tokenizer: string;
  /** A chat template file that overrides the folder's. */
  readonly chatTemplate?: string | undefined;
}

async function textOf(path: string, field: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ParlInputError(field, path, `a readable file (${(err as Error).message})`);
  }
}

function jsonOf(text: string, path: string, field: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ParlInputError(field, path, `a JSON object (${(err as Error).message})`, undefined, 'PARL_ERR_PARSE');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParlInputError(field, path, 'a JSON object');
  return value as Record<string, unknown>;
}

/** `tokenizer_config.json`'s `chat_template`: a string, or a list of `{name, template}` (the one named `default`). */
function configTemplate(config: Readonly<Record<string, unknown>>): string | undefined {
  const value = config['chat_template'];
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const named = value.find((t: unknown) => typeof t === 'object' && t !== null && (t as { name?: unknown }).name === 'default') as { template?: unknown } | undefined;
    return typeof named?.template === 'string' ? named.template : undefined;
  }
  return undefined;
}

/** A trial conversation every template must render: system, user and a tool, with the generation prompt. */
function checkRenders(template: ChatTemplate): void {
  const out = template.render(
    [{ role: 'system', content: 'system' }, { role: 'user', content: 'user' }],
    [{ type: 'function', function: { name: 'look_up', description: 'a tool', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } }],
    true,
  );
  if (!out.includes('user')) throw new ParlInputError('chat_template', template.source, 'a chat template that writes the messages it is given');
}

/**
 * Load a model folder's tokenizer and chat template.
 *
 * @throws ParlInputError when the folder has no tokenizer (`tokenizer.json`, or `tiktoken.model`
 *   with `tokenizer_config.json`), a file does not parse, there is no chat template, or the
 *   template does not render a conversation
 */
export async function loadModelFolder(source: ModelFolderSource): Promise<ModelFolder> {
  const dir = source.tokenizer;
  const configPath = join(dir, 'tokenizer_config.json');
  const configText = await textOf(configPath, 'tokenizer');
  const config = configText === undefined ? {} : jsonOf(configText, configPath, 'tokenizer');
  const jsonPath = join(dir, 'tokenizer.json');
  const json = await textOf(jsonPath, 'tokenizer');
  let tokenizer: TextTokenizer;
  if (json !== undefined) {
    tokenizer = await hfTokenizer(jsonOf(json, jsonPath, 'tokenizer'), config);
  } else {
    const ranksPath = join(dir, 'tiktoken.model');
    const ranks = await textOf(ranksPath, 'tokenizer');
    if (ranks === undefined || configText === undefined) {
      throw new ParlInputError('tokenizer', dir, 'a model folder with tokenizer.json, or tiktoken.model and tokenizer_config.json (Kimi\'s layout)');
    }
    tokenizer = await tiktokenTokenizer(ranks, config, ranksPath);
  }
  let templateText: string | undefined;
  let templateSource: string;
  if (source.chatTemplate !== undefined) {
    templateSource = source.chatTemplate;
    templateText = await textOf(source.chatTemplate, 'chatTemplate');
    if (templateText === undefined) throw new ParlInputError('chatTemplate', source.chatTemplate, 'a chat template file (Jinja) that exists');
  } else {
    templateSource = `${configPath} (chat_template)`;
    templateText = configTemplate(config);
    if (templateText === undefined) {
      templateSource = join(dir, 'chat_template.jinja');
      templateText = await textOf(templateSource, 'tokenizer');
    }
    if (templateText === undefined) throw new ParlInputError('tokenizer', dir, 'a model folder with a chat template: tokenizer_config.json\'s chat_template or chat_template.jinja (or give --chat-template FILE)');
  }
  const template = await chatTemplate(templateText, templateSource, config);
  checkRenders(template);
  return { dir, tokenizer, template };
}
