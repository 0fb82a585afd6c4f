import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParlInputError } from '@parl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPreset, loadPolicy, resolveTrainingConfig, simulate, train, writeRunFolder, type TrainingResult } from '../src/index.js';
import { writeFolderAtomically } from '../src/runs/run-folder.js';

let root: string;
let result: TrainingResult;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'parl-sim-run-'));
  result = await train(resolveTrainingConfig({ steps: 3, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl')));
});

afterAll(async () => {
  result.policy.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('writeRunFolder', () => {
  it('writes config.json, metrics.jsonl, summary.json, policy/ and extra files', async () => {
    const dir = join(root, 'runs', 'a');
    await writeRunFolder(dir, result, { 'report.html': '<html></html>' });
    expect((await readdir(dir)).sort()).toEqual(['config.json', 'metrics.jsonl', 'policy', 'report.html', 'summary.json']);
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toEqual(result.config);
    const lines = (await readFile(join(dir, 'metrics.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(result.metrics);
    expect(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'))).toEqual(result.summary);
    expect(await readdir(join(dir, 'policy'))).toEqual(['policy.json']);
    expect(await readdir(join(root, 'runs'))).toEqual(['a']);
  });

  it('leaves nothing under the final name, and no temporary folder, when a write fails', async () => {
    const dir = join(root, 'runs', 'b');
    // 'config.json/x' needs a folder where config.json is a file: the write fails midway.
    await expect(writeRunFolder(dir, result, { 'config.json/x': 'boom' })).rejects.toThrow();
    expect((await readdir(join(root, 'runs'))).sort()).toEqual(['a']);
  });

  it('keeps an existing run folder intact when replacing it fails', async () => {
    const dir = join(root, 'runs', 'a');
    await expect(writeRunFolder(dir, result, { 'summary.json/x': 'boom' })).rejects.toThrow();
    expect(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'))).toEqual(result.summary);
    expect((await readdir(join(root, 'runs'))).sort()).toEqual(['a']);
  });

  it('rejects extra file paths that leave the folder', async () => {
    await expect(writeRunFolder(join(root, 'runs', 'c'), result, { '../escape.txt': 'x' })).rejects.toThrow(ParlInputError);
  });
});

describe('writeFolderAtomically (the one run-folder writer: parl train and parl sweep)', () => {
  it('writes files by relative path, replaces a foreign folder only with force, and reports its temporary folder', async () => {
    const dir = join(root, 'sweep', 'runs', 'r1');
    const seen: string[] = [];
    const tempPaths = { add: (p: string) => seen.push(`+${p}`), delete: (p: string) => seen.push(`-${p}`) };
    await writeFolderAtomically(dir, { 'summary.json': '{}\n', 'policy/policy.json': '[]\n' }, { tempPaths });
    expect((await readdir(dir)).sort()).toEqual(['policy', 'summary.json']);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.slice(1)).toBe(seen[1]?.slice(1));
    // an incomplete folder holding something else is in the way unless forced
    await writeFile(join(dir, 'notes.txt'), 'mine');
    await expect(writeFolderAtomically(dir, { 'config.json': '{}' })).rejects.toThrow(/notes\.txt/);
    await writeFolderAtomically(dir, { 'config.json': '{}' }, { force: true });
    expect(await readdir(dir)).toEqual(['config.json']);
    expect(await readdir(join(root, 'sweep', 'runs'))).toEqual(['r1']);
    await expect(writeFolderAtomically(dir, { '/abs': 'x' }, { force: true })).rejects.toThrow(ParlInputError);
  });
});

describe('loadPolicy', () => {
  it('round-trips the trained policy: same weights, same actions', async () => {
    const dir = join(root, 'runs', 'rt');
    await writeRunFolder(dir, result);
    const loaded = await loadPolicy(join(dir, 'policy'));
    expect(loaded.toSaved()).toEqual(result.policy.toSaved());
    const a = await simulate({ policy: result.policy, episodes: 20, seed: 4, greedy: false });
    const b = await simulate({ policy: loaded, episodes: 20, seed: 4, greedy: false });
    expect(b).toEqual(a);
    const fromRun = await loadPolicy(dir);
    expect(fromRun.toSaved()).toEqual(loaded.toSaved());
    loaded.dispose();
    fromRun.dispose();
  });

  it('explains a missing or corrupt policy folder', async () => {
    await expect(loadPolicy(join(root, 'nowhere'))).rejects.toThrow(/a policy folder holding policy\.json/);
    const bad = join(root, 'bad');
    await writeRunFolder(bad, result);
    await writeFile(join(bad, 'policy', 'policy.json'), '{"format": "parl-sim-mlp-policy", "version": 1', 'utf8');
    await expect(loadPolicy(join(bad, 'policy'))).rejects.toThrow(/policy\.json: policy must be valid JSON/);
    const saved = result.policy.toSaved();
    const broken = { ...saved, layers: [{ ...saved.layers[0], bias: [1, 'x'] }, ...saved.layers.slice(1)] };
    await writeFile(join(bad, 'policy', 'policy.json'), JSON.stringify(broken), 'utf8');
    await expect(loadPolicy(join(bad, 'policy'))).rejects.toThrow(/layers\[0\]\.bias\[1\] must be a finite number, got "x"/);
    const short = { ...saved, layers: saved.layers.slice(1) };
    await writeFile(join(bad, 'policy', 'policy.json'), JSON.stringify(short), 'utf8');
    await expect(loadPolicy(join(bad, 'policy'))).rejects.toThrow(/layers must be 3 layers/);
  });
});
