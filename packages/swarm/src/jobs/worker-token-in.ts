/**
 * Token in on a `parl worker`: a rollout job carries `--token-in`'s settings (the model folder's
 * and the chat template's paths as the coordinator resolved them, the parsers' names, the context
 * length — never a file's contents), and the worker reads the folder at that path — only under
 * the folders it was given (`parl worker --model-folder`, `model-folder-trust.ts`) — the first time
 * a job names it, and keeps it: every later job naming the same folder and template shares it. At
 * most {@link WORKER_MODEL_FOLDERS_HELD} are kept (a job, which anyone who can write to the queue
 * can write, names the folder, and each holds a tokenizer of tens of MB): past that, the one no
 * job has named for longest is let go and read again when named. A folder that cannot be read is
 * not kept, so a job after it is fixed (mounted, copied) reads it again; the job that failed fails
 * with one line naming this worker and the path.
 *
 * @module
 */
import { hostname } from 'node:os';
import { ParlInputError } from '@parl/core';
import { checkModelFolderTrust } from './model-folder-trust.js';
import { loadModelFolder, type ModelFolder, type ModelFolderSource } from '../tokens/model-folder.js';
import { tokenInModelWith, type TokenInModel, type TokenInSource } from '../tokens/token-in-model.js';

/**
 * Model folders (each with its chat template) a worker keeps read at once; the least recently
 * named is let go past this many. A job still running on one it let go keeps it until it ends.
 */
export const WORKER_MODEL_FOLDERS_HELD = 4;

/** The model folders a worker has read, by folder and template. */
export interface WorkerTokenIn {
  /**
   * Token in's model for a job: its folder read once per process, its parsers and context length the job's.
   *
   * @throws {@link @parl/core!ParlInputError} for an unknown parser, or a folder or template this
   *   worker cannot read or render (the message names the worker's host and the path)
   */
  model(source: TokenInSource): Promise<TokenInModel>;
}

/**
 * The error of a folder this worker cannot load, prefixed with the worker's host and the whole
 * path (an error's value is cut short past 60 characters), so the coordinator's line says where.
 */
function onThisWorker(err: unknown): unknown {
  if (!(err instanceof ParlInputError) || err.location !== undefined) return err;
  return err.at(`parl worker on ${hostname()}${typeof err.value === 'string' ? ` (${err.value})` : ''}`);
}

/**
 * A worker's model folders, empty until a token-in job needs one (each read from disk as `parl
 * swarm run --token-in` reads it), at most {@link WORKER_MODEL_FOLDERS_HELD} kept.
 *
 * @param modelFolders - the folders it reads models from (`parl worker --model-folder`): a job's
 *   folder and chat template must lie under one of them
 */
export function workerTokenIn(modelFolders: readonly string[]): WorkerTokenIn {
  const folders = new Map<string, Promise<ModelFolder>>();
  const cached = (source: ModelFolderSource): Promise<ModelFolder> => {
    const key = JSON.stringify([source.tokenizer, source.chatTemplate ?? null]);
    const known = folders.get(key);
    if (known !== undefined) {
      // The most recently named goes last: the first key is the one to let go.
      folders.delete(key);
      folders.set(key, known);
      return known;
    }
    const folder = loadModelFolder(source);
    if (folders.size >= WORKER_MODEL_FOLDERS_HELD) folders.delete(folders.keys().next().value as string);
    folders.set(key, folder);
    // A folder that failed is read again by the next job that names it.
    folder.catch(() => {
      if (folders.get(key) === folder) folders.delete(key);
    });
    return folder;
  };
  return {
    async model(source) {
      try {
        await checkModelFolderTrust('--tokenizer', source.tokenizer, modelFolders);
        if (source.chatTemplate !== undefined) await checkModelFolderTrust('--chat-template', source.chatTemplate, modelFolders);
        return await tokenInModelWith(source, cached);
      } catch (err) {
        throw onThisWorker(err);
      }
    },
  };
}
