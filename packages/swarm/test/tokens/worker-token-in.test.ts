/**
 * Token in on a worker: a rollout job carries `--token-in`'s settings (paths made absolute, no
 * file contents), and one handler reads each model folder once (Qwen3's real folder) however many
 * jobs name it; a folder it cannot read fails the job with one line naming the worker and the
 * path, and is read again by the next job.
 */
import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ParlInputError, resolveOptions } from '@parl/core';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { startTokenCompletionsEndpoint, type TokenCompletionsEndpoint } from '@parl/test-support/token-completions-endpoint';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolloutJobHandler, SWARM_RUN_OPTIONS } from '../../src/index.js';
import { rolloutJob } from '../../src/jobs/rollout-job.js';
import { WORKER_MODEL_FOLDERS_HELD } from '../../src/jobs/worker-token-in.js';
import { loadModelFolder } from '../../src/tokens/model-folder.js';
import { QWEN3_FOLDER } from './qwen3-folder.js';

// Every read of a model folder from disk, counted (the real read all the same).
vi.mock('../../src/tokens/model-folder.js', async (actual) => {
  const real = await actual<typeof import('../../src/tokens/model-folder.js')>();
  return { ...real, loadModelFolder: vi.fn(real.loadModelFolder) };
});
const reads = (): string[] => vi.mocked(loadModelFolder).mock.calls.map(([source]) => source.tokenizer);

let endpoint: TokenCompletionsEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
  vi.mocked(loadModelFolder).mockClear();
});

const IM_END = 151645;
const flags = (url: string, folder: string) =>
  resolveOptions(
    SWARM_RUN_OPTIONS,
    { 'base-url': url, model: 'Qwen/Qwen3-8B', subagents: 'scripted', tasks: '2', 'token-in': 'true', tokenizer: folder, 'reasoning-parser': 'qwen3', 'max-model-len': '32768' },
    'flag',
  );

describe('token in on a worker', () => {
  it('a job carries the settings, the folder\'s path absolute, never a file\'s contents', () => {
    const job = rolloutJob(flags('http://127.0.0.1:9/v1', relative(process.cwd(), QWEN3_FOLDER)), 0, 0, false);
    expect(job.options).toMatchObject({ 'token-in': 'true', tokenizer: QWEN3_FOLDER, 'reasoning-parser': 'qwen3', 'max-model-len': '32768' });
    expect(JSON.stringify(job).length).toBeLessThan(2000);
  });

  it('one handler reads a folder once for every job that names it; each line is token in\'s', async () => {
    const { tokenizer } = await loadModelFolder({ tokenizer: QWEN3_FOLDER });
    vi.mocked(loadModelFolder).mockClear();
    const completion = [...tokenizer.encode('<think>\nNo tools needed.\n</think>\n\nI do not know.'), IM_END];
    endpoint = await startTokenCompletionsEndpoint(() => ({ ids: completion }));
    const handler = rolloutJobHandler({ modelFolders: [QWEN3_FOLDER] });
    const options = flags(endpoint.baseURL, QWEN3_FOLDER);
    const results = await Promise.all([0, 1].flatMap((task) => [0, 1].map((sample) => handler.run(rolloutJob(options, task, sample, false)))));
    expect(reads()).toEqual([QWEN3_FOLDER]);
    // A second handler is another worker: it reads the folder itself.
    await rolloutJobHandler({ modelFolders: [QWEN3_FOLDER] }).run(rolloutJob(options, 0, 0, false));
    expect(reads()).toEqual([QWEN3_FOLDER, QWEN3_FOLDER]);
    expect(endpoint.requests).toHaveLength(5);
    for (const { line } of results) {
      expect(endpoint.requests.some((r) => JSON.stringify(r.prompt) === JSON.stringify(line['prompt_ids']))).toBe(true);
      expect(line['response_ids']).toEqual(completion);
      expect(line['response_mask']).toEqual(completion.map(() => 1));
      expect(line['end_reason']).toBe('answer');
      expect(line).not.toHaveProperty('retokenized_at');
    }
  });

  it('a folder the worker cannot read fails the job with one line naming the worker and the path, and is read again by the next job', async () => {
    const dir = await makeTempDir('worker-token-in');
    try {
      const folder = join(dir.path, 'qwen3');
      const { tokenizer } = await loadModelFolder({ tokenizer: QWEN3_FOLDER });
      const answer = [...tokenizer.encode('Paris.'), IM_END];
      endpoint = await startTokenCompletionsEndpoint(() => ({ ids: answer }));
      vi.mocked(loadModelFolder).mockClear();
      const handler = rolloutJobHandler({ modelFolders: [dir.path] });
      const job = rolloutJob(flags(endpoint.baseURL, folder), 0, 0, false);
      const err = await handler.run(job).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ParlInputError);
      expect((err as Error).message).toBe(`parl worker on ${hostname()} (${folder}): tokenizer must be a model folder with tokenizer.json, or tiktoken.model and tokenizer_config.json (Kimi's layout), got ${JSON.stringify(folder)}`);
      expect((err as Error).message).not.toContain('\n');
      expect(endpoint.requests).toHaveLength(0);
      // Once the folder is there, the next job reads it.
      await cp(QWEN3_FOLDER, folder, { recursive: true });
      await handler.run(job);
      expect(reads()).toEqual([folder, folder]);
      await rm(folder, { recursive: true });
      // …and keeps it: a later job needs no disk.
      await handler.run(rolloutJob(flags(endpoint.baseURL, folder), 0, 1, false));
      expect(reads()).toHaveLength(2);
    } finally {
      await dir.remove();
    }
  });

  it(`keeps at most ${WORKER_MODEL_FOLDERS_HELD} folders read, letting go of the one named least recently`, async () => {
    const dir = await makeTempDir('worker-token-in-held');
    try {
      const { tokenizer } = await loadModelFolder({ tokenizer: QWEN3_FOLDER });
      endpoint = await startTokenCompletionsEndpoint(() => ({ ids: [...tokenizer.encode('Paris.'), IM_END] }));
      // One more folder than are kept: links to the real folder, each its own path to a job.
      const folders = Array.from({ length: WORKER_MODEL_FOLDERS_HELD + 1 }, (_, k) => join(dir.path, `model-${k}`));
      for (const folder of folders) await symlink(QWEN3_FOLDER, folder);
      vi.mocked(loadModelFolder).mockClear();
      const handler = rolloutJobHandler({ modelFolders: [dir.path, QWEN3_FOLDER] });
      const run = (folder: string) => handler.run(rolloutJob(flags((endpoint as TokenCompletionsEndpoint).baseURL, folder), 0, 0, false));
      for (const folder of folders) await run(folder);
      expect(reads()).toEqual(folders);
      // The first was let go; the others are kept, and naming one makes it the most recent.
      const [first, second, ...rest] = folders as [string, string, ...string[]];
      for (const folder of [second, ...rest]) await run(folder);
      expect(reads()).toHaveLength(folders.length);
      await run(second);
      await run(first);
      // Reading the first again let go of the least recently named: the third, not the second.
      expect(reads()).toEqual([...folders, first]);
      await run(second);
      expect(reads()).toHaveLength(folders.length + 1);
      await run(rest[0] as string);
      expect(reads()).toEqual([...folders, first, rest[0]]);
    } finally {
      await dir.remove();
    }
  });

  it('reads only under the worker\'s --model-folder: a folder or template elsewhere, or a link out, fails the job naming the flag and the path, before any request', async () => {
    const dir = await makeTempDir('worker-token-in-trust');
    try {
      endpoint = await startTokenCompletionsEndpoint(() => ({ ids: [IM_END] }));
      const url = endpoint.baseURL;
      const models = join(dir.path, 'models');
      await mkdir(models);
      // A template outside the model folders, and a link inside them to a folder outside.
      const secret = join(dir.path, 'secret.txt');
      await writeFile(secret, 'user: not a template\n');
      await symlink(dirname(QWEN3_FOLDER), join(models, 'linked'));
      vi.mocked(loadModelFolder).mockClear();
      const refused = async (modelFolders: readonly string[] | undefined, folder: string, template?: string): Promise<string> => {
        const options = flags(url, folder);
        const job = rolloutJob(template === undefined ? options : { ...options, chatTemplate: template }, 0, 0, false);
        const err = await rolloutJobHandler(modelFolders === undefined ? {} : { modelFolders }).run(job).then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(ParlInputError);
        return (err as Error).message;
      };
      // The whole path is named (the value after "got" is cut short past 60 characters).
      const worker = (path: string) => `parl worker on ${hostname()} (${path})`;
      expect(await refused(undefined, QWEN3_FOLDER)).toMatch(
        `${worker(QWEN3_FOLDER)}: --tokenizer must be under a folder this worker reads models from, and it has none: start it with parl worker --model-folder DIR to run --token-in rollouts, got "`,
      );
      expect(await refused([models], QWEN3_FOLDER)).toContain(`${worker(QWEN3_FOLDER)}: --tokenizer must be under a folder this worker reads models from (parl worker --model-folder: ${models}), got "`);
      expect(await refused([QWEN3_FOLDER], QWEN3_FOLDER, secret)).toContain(`${worker(secret)}: --chat-template must be under a folder this worker reads models from (parl worker --model-folder: ${QWEN3_FOLDER}), got "`);
      expect(await refused([models], join(models, 'linked', 'models'))).toContain('--tokenizer must be under a folder this worker reads models from');
      expect(reads()).toEqual([]);
      expect(endpoint.requests).toHaveLength(0);
    } finally {
      await dir.remove();
    }
  });
});
