/**
 * The files `parl swarm run` writes: never one it did not write, a resume only of the same
 * configuration, torn tails cut, spans resumed like the lines, lines streamed as they finish.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError, resolveOptions } from '@parl/core';
import { ParlIoError } from '@parl/io';
import { readTraces } from '@parl/traces';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RolloutsInterruptedError, swarmRun, SWARM_RUN_OPTIONS, type RolloutLine, type SwarmRunOptions } from '../src/index.js';
import { openSpansFile } from '../src/jobs/spans-file.js';
import { openRolloutFile } from '../src/rollouts/rollout-file.js';
import { orchestratorFrom } from './support.js';

/** An orchestrator that answers at once (one model call per episode). */
function answering() {
  return orchestratorFrom(() => 'no idea');
}

function options(flags: Record<string, string>): SwarmRunOptions {
  return resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', subagents: 'scripted', tasks: '2', 'group-size': '2', ...flags }, 'flag');
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('swarm-run-files');
});
afterEach(async () => {
  await dir.remove();
});

describe('parl swarm run never replaces a file it did not write', () => {
  const foreign: readonly [string, string][] = [
    ['a JSONL file of other records', '{"id":1,"text":"a"}\n{"id":2,"text":"b"}\n'],
    ['a JSON config', '{"lr":0.1}\n'],
    ['a pretty-printed JSON file', '{\n  "lr": 0.1\n}\n'],
    ['notes', 'buy milk\n'],
  ];
  for (const [what, content] of foreign) {
    it(`--out on ${what}: refused before any episode, naming --out, the file and its line; the file is untouched`, async () => {
      const out = join(dir.path, 'x.jsonl');
      await writeFile(out, content);
      const orchestrator = answering();
      const err = await swarmRun(options({ out }), { models: () => orchestrator }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParlInputError);
      expect((err as ParlInputError).message).toMatch(/^--out must be a new file or a rollout file of parl swarm run, which .*x\.jsonl is not \(line 1 is not/);
      expect((err as ParlInputError).code).toBe('PARL_ERR_CONFLICT');
      expect(orchestrator.doGenerateCalls).toHaveLength(0);
      expect(await readFile(out, 'utf8')).toBe(content);
      expect(await readdir(dir.path)).toEqual(['x.jsonl']);
    });
  }

  it('--spans on notes: refused before any episode, the notes untouched', async () => {
    const spans = join(dir.path, 'notes.txt');
    await writeFile(spans, 'my notes\n');
    const orchestrator = answering();
    await expect(swarmRun(options({ spans }), { models: () => orchestrator })).rejects.toThrow(/^--spans must be a new file or a spans file .*notes\.txt is not \(line 1 is not JSON\)/);
    expect(orchestrator.doGenerateCalls).toHaveLength(0);
    expect(await readFile(spans, 'utf8')).toBe('my notes\n');
  });

  it('--out and --spans on one path: refused up front', async () => {
    const path = join(dir.path, 'same.jsonl');
    const orchestrator = answering();
    await expect(swarmRun(options({ out: path, spans: path }), { models: () => orchestrator })).rejects.toThrow(/^--spans must be a path no other output uses \(--out writes .*same\.jsonl too\)/);
    await expect(swarmRun(options({ out: path, spans: `${path}.partial` }), { models: () => orchestrator })).rejects.toThrow(/^--spans must be a path no other output uses/);
    expect(orchestrator.doGenerateCalls).toHaveLength(0);
    expect(await readdir(dir.path)).toEqual([]);
  });

  it('--out in a missing folder, or on a folder: one line naming the flag', async () => {
    const orchestrator = answering();
    const missing = await swarmRun(options({ out: join(dir.path, 'missing', 'dir', 'x.jsonl') }), { models: () => orchestrator }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ParlIoError);
    expect((missing as Error).message).toMatch(/^cannot write --out .*missing\/dir\/x\.jsonl: no such file or directory \(the folder .*missing\/dir must exist\)$/);
    await mkdir(join(dir.path, 'folder'));
    const folder = await swarmRun(options({ out: join(dir.path, 'folder') }), { models: () => orchestrator }).catch((e: unknown) => e);
    expect((folder as Error).message).toMatch(/^cannot write --out .*folder: is a directory$/);
    expect(orchestrator.doGenerateCalls).toHaveLength(0);
  });
});

describe('a resume is of the same configuration', () => {
  it('a rerun with another --model or --training-step is refused naming the flags; --restart starts clean', async () => {
    const out = join(dir.path, 'r.jsonl');
    await swarmRun(options({ out }), { models: () => answering() });
    const first = await readFile(out, 'utf8');
    expect(jsonLines(first)[0]?.['rollout_options']).toMatchObject({ model: 'm', 'training-step': '0', 'group-size': '2', suite: 'wide', seed: '1' });
    const orchestrator = answering();
    await expect(swarmRun(options({ out, model: 'other', 'training-step': '5000' }), { models: () => orchestrator })).rejects.toThrow(
      /^--out must be a rollout file of this run's configuration to resume, which .*r\.jsonl is not \(line 1 was run with --model m \(now other\), --training-step 0 \(now 5000\)\): rerun with its flags to resume it, add --restart/,
    );
    expect(orchestrator.doGenerateCalls).toHaveLength(0);
    expect(await readFile(out, 'utf8')).toBe(first);
    // The same configuration: nothing runs, the file is the same.
    const again = answering();
    const summary = await swarmRun(options({ out }), { models: () => again });
    expect(summary).toMatchObject({ episodes: 4, ran: 0, resumed: 4 });
    expect(again.doGenerateCalls).toHaveLength(0);
    expect(await readFile(out, 'utf8')).toBe(first);
    // --restart: every episode runs again, under the new flags.
    const restarted = answering();
    await swarmRun(options({ out, 'training-step': '5000', restart: 'true' }), { models: () => restarted });
    expect(restarted.doGenerateCalls).toHaveLength(4);
    expect(jsonLines(await readFile(out, 'utf8')).map((l) => l['training_step'])).toEqual([5000, 5000, 5000, 5000]);
  });

  it('an interrupted run resumed with another --budget is refused: one file never mixes configurations', async () => {
    const out = join(dir.path, 'r.jsonl');
    const controller = new AbortController();
    await expect(
      swarmRun(options({ out }), { models: () => answering(), signal: controller.signal, onProgress: (d) => (d === 1 ? controller.abort() : undefined) }),
    ).rejects.toBeInstanceOf(RolloutsInterruptedError);
    expect(jsonLines(await readFile(`${out}.partial`, 'utf8'))).toHaveLength(1);
    await expect(swarmRun(options({ out, budget: '10' }), { models: () => answering() })).rejects.toThrow(/r\.jsonl\.partial is not \(line 1 was run with --budget not given \(now 10\)\)/);
  });
});

describe('interrupted runs resume cleanly', () => {
  it('a torn last line of the partial file is cut before the next append', async () => {
    const out = join(dir.path, 'r.jsonl');
    const controller = new AbortController();
    await swarmRun(options({ out }), { models: () => answering(), signal: controller.signal, onProgress: (d) => (d === 2 ? controller.abort() : undefined) }).catch(() => undefined);
    // What a crash mid-append leaves.
    await writeFile(`${out}.partial`, `${await readFile(`${out}.partial`, 'utf8')}{"group_id":"wide-s1-1","sam`);
    const second = new AbortController();
    await swarmRun(options({ out }), { models: () => answering(), signal: second.signal, onProgress: (d) => (d === 3 ? second.abort() : undefined) }).catch(() => undefined);
    const partial = jsonLines(await readFile(`${out}.partial`, 'utf8'));
    expect(partial.map((l) => [l['group_id'], l['sample']])).toEqual([['wide-s1-0', 0], ['wide-s1-0', 1], ['wide-s1-1', 0]]);
    const orchestrator = answering();
    await swarmRun(options({ out }), { models: () => orchestrator });
    expect(orchestrator.doGenerateCalls).toHaveLength(1);
    expect(jsonLines(await readFile(out, 'utf8')).map((l) => [l['group_id'], l['sample']])).toEqual([['wide-s1-0', 0], ['wide-s1-0', 1], ['wide-s1-1', 0], ['wide-s1-1', 1]]);
  });

  it('a partial file whose last line a crash tore at any byte (inside its first 12 included) resumes its finished lines: the tear is cut, not refused', async () => {
    const out = join(dir.path, 'r.jsonl');
    const line = (sample: number): string => JSON.stringify({ group_id: 'wide-s1-0', sample, rollout_options: { model: 'm' }, total_reward: 0.5, answer: 'é 🙂' });
    const first = `${line(0)}\n`;
    const full = Buffer.from(`${first}${line(1)}\n`);
    const lastStart = Buffer.byteLength(first);
    for (let cut = lastStart + 1; cut < full.length; cut++) {
      await writeFile(`${out}.partial`, full.subarray(0, cut));
      const file = await openRolloutFile(out, { options: { model: 'm' } });
      expect([cut, [...file.finished.values()].map((r) => r.sample)]).toEqual([cut, [0]]);
      await file.append(JSON.parse(line(1)) as { group_id: string; sample: number });
      expect([cut, await readFile(`${out}.partial`, 'utf8')]).toEqual([cut, full.toString('utf8')]);
    }
  });

  it('a spans partial file torn at any byte of its last line is cut on resume, not refused', async () => {
    const spans = join(dir.path, 'spans.jsonl');
    const request = JSON.stringify({ resourceSpans: [] });
    const full = Buffer.from(`${request}\n${request}\n`);
    const lastStart = Buffer.byteLength(request) + 1;
    for (let cut = lastStart + 1; cut < full.length; cut++) {
      await writeFile(`${spans}.partial`, full.subarray(0, cut));
      const file = await openSpansFile(spans, { resume: true });
      await file.append(request);
      expect([cut, await readFile(`${spans}.partial`, 'utf8')]).toEqual([cut, full.toString('utf8')]);
    }
  });

  it('spans resume like the lines: after an interrupt, the file holds every episode\'s trace and nothing is left beside it', async () => {
    const out = join(dir.path, 'r.jsonl');
    const spans = join(dir.path, 'spans.jsonl');
    const controller = new AbortController();
    await expect(
      swarmRun(options({ out, spans, tasks: '3' }), { models: () => answering(), signal: controller.signal, onProgress: (d) => (d === 2 ? controller.abort() : undefined) }),
    ).rejects.toBeInstanceOf(RolloutsInterruptedError);
    expect((await readdir(dir.path)).sort()).toEqual(['r.jsonl.partial', 'spans.jsonl.partial']);
    await swarmRun(options({ out, spans, tasks: '3' }), { models: () => answering() });
    expect((await readdir(dir.path)).sort()).toEqual(['r.jsonl', 'spans.jsonl']);
    let traces = 0;
    for await (const _ of readTraces([await readFile(spans, 'utf8')], { onWarning: () => {} })) traces++;
    expect(traces).toBe(6);
  });
});

describe('lines are streamed as they finish', () => {
  it('each sample is in the partial file when its progress is told, and each group reaches onLine before the next group runs', async () => {
    const out = join(dir.path, 'r.jsonl');
    const events: string[] = [];
    const partialCounts: number[] = [];
    const orchestrator = orchestratorFrom(() => {
      events.push('episode');
      return 'no idea';
    });
    await swarmRun(options({ out, tasks: '3' }), {
      models: () => orchestrator,
      onLine: async (l: RolloutLine) => {
        events.push(`line ${l.group_id}/${l.sample}`);
        partialCounts.push(jsonLines(await readFile(`${out}.partial`, 'utf8')).length);
      },
    });
    expect(events).toEqual([
      'episode', 'episode', 'line wide-s1-0/0', 'line wide-s1-0/1',
      'episode', 'episode', 'line wide-s1-1/0', 'line wide-s1-1/1',
      'episode', 'episode', 'line wide-s1-2/0', 'line wide-s1-2/1',
    ]);
    // When group k is handed on, its 2 (k + 1) samples are in the partial file: appended as they finished.
    expect(partialCounts).toEqual([2, 2, 4, 4, 6, 6]);
  });
});
