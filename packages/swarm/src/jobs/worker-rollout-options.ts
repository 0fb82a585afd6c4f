/**
 * The option rows of a `parl worker`'s swarm rollouts, declared once: the endpoints it trusts
 * with its API key (`--allow-endpoint`, `endpoint-trust.ts`) and the folders it reads token-in
 * models from (`--model-folder`, `model-folder-trust.ts`). The CLI adds them to the worker's
 * flags when `@parl/swarm` is installed, as it adds {@link RUN_TOOL_OPTIONS}; their keys are
 * {@link rolloutJobHandler}'s hooks. A tiny module (core only), so that help never loads the AI SDK.
 *
 * @module
 */
import { defineOptionTable, nonEmptyTextOption, type OptionParser, type ResolvedOptions } from '@parl/core';
import { parseEndpointPrefix } from './endpoint-prefix.js';

/** `--allow-endpoint` values (one per line, as repeatable rows receive them), each normalised. */
const endpointPrefixesOption: OptionParser<string[]> = (text, field) => text.split('\n').map((prefix) => parseEndpointPrefix(prefix, field));

/** `--model-folder` values (one per line), as given: a worker checks at start that each is a folder (`requireModelFolders`). */
const modelFoldersOption: OptionParser<string[]> = (text, field) => text.split('\n').map((folder) => nonEmptyTextOption(folder, field));

/**
 * The rows of a worker's swarm rollouts: which endpoints it sends its API key to, which folders
 * it reads token-in models from.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(WORKER_ROLLOUT_OPTIONS, { 'allow-endpoint': 'http://10.0.0.9:8000/v1/' }, 'flag').allowEndpoints;
 * // ['http://10.0.0.9:8000/v1']
 * ```
 */
export const WORKER_ROLLOUT_OPTIONS = defineOptionTable({
  allowEndpoints: {
    flag: 'allow-endpoint',
    arg: 'URL-PREFIX',
    parse: endpointPrefixesOption,
    repeatable: true,
    help: 'an endpoint this worker sends its API key to; while a key is set, a swarm rollout naming any other endpoint fails, named; repeatable',
  },
  modelFolders: {
    flag: 'model-folder',
    arg: 'DIR',
    parse: modelFoldersOption,
    repeatable: true,
    help: 'a folder this worker reads --token-in models from: a swarm rollout whose --tokenizer folder or --chat-template file is under none of them fails, named; without it no --token-in rollout runs here; repeatable',
  },
});

/** A worker's rollout settings, as {@link WORKER_ROLLOUT_OPTIONS} resolves them. */
export type WorkerRolloutSettings = Partial<ResolvedOptions<typeof WORKER_ROLLOUT_OPTIONS>>;
