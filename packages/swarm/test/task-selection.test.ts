/**
 * Task files in a run (spec §10.1): `--tasks N` takes the file's first N rows, `--suite` and
 * `--seed` beside a file are refused, a resume compares only the settings that shape episodes,
 * and task ids `.` and `..` that a URL template would place as a path segment are refused before
 * any episode.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveOptions } from '@parl/core';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swarmRun, SWARM_RUN_OPTIONS } from '../src/index.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('swarm-task-selection');
});
afterAll(async () => {
  await dir.remove();
});

async function tasksFile(name: string, ids: readonly string[]): Promise<string> {
  const path = join(dir.path, name);
  await writeFile(path, ids.map((id) => `${JSON.stringify({ id, prompt: `Look up ${id}.`, answer: 'x' })}\n`).join(''));
  return path;
}

const run = (flags: Record<string, string>) => swarmRun(resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:parallel', ...flags }, 'flag'));
const idsIn = async (path: string): Promise<unknown[]> => (await readFile(path, 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { task_id: unknown }).task_id);

describe('--tasks with --tasks-file', () => {
  it('takes the file\'s first N rows, in file order', async () => {
    const file = await tasksFile('five.jsonl', ['r1', 'r2', 'r3', 'r4', 'r5']);
    const out = join(dir.path, 'first-two.jsonl');
    expect(await run({ 'tasks-file': file, tasks: '2', out })).toMatchObject({ episodes: 2 });
    expect(await idsIn(out)).toEqual(['r1', 'r2']);
  });

  it('--suite or --seed beside a file is refused before anything runs', async () => {
    const file = await tasksFile('two.jsonl', ['a', 'b']);
    const out = join(dir.path, 'never.jsonl');
    await expect(run({ 'tasks-file': file, suite: 'deep', out })).rejects.toMatchObject({ name: 'ParlInputError', message: '--suite must be not given with --tasks-file: the tasks are the file\'s rows, got "deep"' });
    await expect(run({ 'tasks-file': file, seed: '3', out })).rejects.toMatchObject({ name: 'ParlInputError', field: '--seed' });
    await expect(readFile(out, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('a resume compares only the settings that shape episodes', () => {
  it('a larger --tasks extends the run, and a flag the run does not use (a suite setting beside a file) never blocks it', async () => {
    const file = await tasksFile('grow.jsonl', ['g1', 'g2', 'g3', 'g4']);
    const out = join(dir.path, 'grow-rollouts.jsonl');
    await run({ 'tasks-file': file, tasks: '2', out });
    expect(await run({ 'tasks-file': file, tasks: '3', hops: '9', entities: '2', out })).toMatchObject({ episodes: 3, ran: 1, resumed: 2 });
    // Lines of an older version named unused flags in rollout_options: they are not compared either.
    const older = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => {
        const line = JSON.parse(l) as { rollout_options: Record<string, string> };
        return JSON.stringify({ ...line, rollout_options: { ...line.rollout_options, tasks: '3', suite: 'wide', seed: '1', hops: '4' } });
      });
    await writeFile(out, `${older.join('\n')}\n`);
    expect(await run({ 'tasks-file': file, out })).toMatchObject({ episodes: 4, ran: 1, resumed: 3 });
    expect(await idsIn(out)).toEqual(['g1', 'g2', 'g3', 'g4']);
    // A setting that does shape episodes still blocks it.
    await expect(run({ 'tasks-file': file, out, 'training-step': '7' })).rejects.toThrow(/--training-step 0 \(now 7\)/);
  });
});

describe('task ids . and .. in URL templates', () => {
  it('are refused before any episode where a template would place them as a path segment; elsewhere they are ids like any other', async () => {
    const file = await tasksFile('dots.jsonl', ['ok', '..']);
    const out = join(dir.path, 'dots-rollouts.jsonl');
    await expect(run({ 'tasks-file': file, 'base-url': 'http://127.0.0.1:9/t/{task_id}/v1', out })).rejects.toMatchObject({
      name: 'ParlInputError',
      message: 'task id must be an id other than . and .., which --base-url http://127.0.0.1:9/t/{task_id}/v1 would place as a path segment (the request would go to another path), got ".."',
    });
    const dot = await tasksFile('dot.jsonl', ['.']);
    await expect(run({ 'tasks-file': dot, 'reward-url': 'http://127.0.0.1:9/r/{task_id}', out })).rejects.toThrow(/^task id must be an id other than \. and \.\., which --reward-url/);
    await expect(readFile(out, 'utf8')).rejects.toThrow(/ENOENT/);
    // Inside a segment, or without a template, `..` is an id like any other.
    expect(await run({ 'tasks-file': file, 'base-url': 'http://127.0.0.1:9/t/x{task_id}/v1', out })).toMatchObject({ episodes: 2 });
  });
});
