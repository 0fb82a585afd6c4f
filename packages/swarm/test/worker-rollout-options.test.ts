/**
 * A worker's rollout rows (`--allow-endpoint`, `--model-folder`), declared once in
 * `WORKER_ROLLOUT_OPTIONS`: read from flags or a library config alike, each endpoint normalised;
 * each folder must be one this machine has when a worker's handler is made.
 */
import { join } from 'node:path';
import { ParlInputError, resolveOptions } from '@parl/core';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { rolloutJobHandler } from '../src/index.js';
import { WORKER_ROLLOUT_OPTIONS } from '../src/options.js';

describe('WORKER_ROLLOUT_OPTIONS', () => {
  it('reads repeated flags and a library config alike: endpoints normalised, folders as given', async () => {
    const dir = await makeTempDir('worker-rollout-options');
    try {
      const models = dir.path;
      expect(resolveOptions(WORKER_ROLLOUT_OPTIONS, { 'allow-endpoint': 'http://10.0.0.9:8000/v1/\nhttps://api.example.com', 'model-folder': models }, 'flag')).toEqual({
        allowEndpoints: ['http://10.0.0.9:8000/v1', 'https://api.example.com'],
        modelFolders: [models],
      });
      expect(resolveOptions(WORKER_ROLLOUT_OPTIONS, { allowEndpoints: ['http://10.0.0.9:8000/v1/'], modelFolders: [models, models] }, 'library')).toEqual({
        allowEndpoints: ['http://10.0.0.9:8000/v1'],
        modelFolders: [models, models],
      });
      expect(resolveOptions(WORKER_ROLLOUT_OPTIONS, {}, 'flag')).toEqual({});
    } finally {
      await dir.remove();
    }
  });

  it('a handler refuses a folder that is not there, or is a file; the table an endpoint that is not an http(s) prefix, naming the flag and the value', async () => {
    const dir = await makeTempDir('worker-rollout-options');
    try {
      const missing = join(dir.path, 'models');
      const thrown = (f: () => unknown): ParlInputError => {
        try {
          f();
        } catch (err) {
          expect(err).toBeInstanceOf(ParlInputError);
          return err as ParlInputError;
        }
        throw new Error('accepted');
      };
      const refused = (raw: Record<string, string>): ParlInputError => thrown(() => resolveOptions(WORKER_ROLLOUT_OPTIONS, raw, 'flag'));
      // The table takes any path (it is checked where it is used, when the worker starts: a
      // command line in the docs names /models); the handler refuses one that is not a folder.
      const { modelFolders } = resolveOptions(WORKER_ROLLOUT_OPTIONS, { 'model-folder': `${dir.path}\n${missing}` }, 'flag');
      const err = thrown(() => rolloutJobHandler({ modelFolders: modelFolders ?? [] }));
      expect(err.field).toBe('--model-folder');
      expect(err.value).toBe(missing);
      expect(err.message).toBe(`--model-folder must be a folder this machine has (nothing is at that path), got ${JSON.stringify(missing)}`);
      expect(thrown(() => rolloutJobHandler({ modelFolders: [import.meta.filename] })).message).toContain('(that path is a file)');
      expect(rolloutJobHandler({ modelFolders: [dir.path] }).run).toBeTypeOf('function');
      expect(refused({ 'allow-endpoint': 'http://10.0.0.9:8000/v1?key=1' }).message).toBe(
        '--allow-endpoint must be an http(s) URL prefix such as https://api.example.com/v1 (no query or fragment), got "http://10.0.0.9:8000/v1?key=1"',
      );
    } finally {
      await dir.remove();
    }
  });
});
