/**
 * `--restart` (spec §10.6, issue 37.1): every input is checked and every tool started before the
 * old rollout file goes, and it goes only when the first new line is written. A missing
 * `--base-url`, an MCP server that does not start, a refused `--spans` file and a dead endpoint
 * each leave the old file byte-identical.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveOptions } from '@parl/core';
import { startChatEndpoint } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swarmRun, SWARM_RUN_OPTIONS } from '../src/index.js';

let dir: TempDir;
let out: string;
let old: string;
beforeAll(async () => {
  dir = await makeTempDir('swarm-restart');
  out = join(dir.path, 'r.jsonl');
  await swarmRun(resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:parallel', tasks: '2', entities: '2', out }, 'flag'));
  old = await readFile(out, 'utf8');
});
afterAll(async () => {
  await dir.remove();
});

const restart = (extra: Record<string, string>) => swarmRun(resolveOptions(SWARM_RUN_OPTIONS, { tasks: '2', entities: '2', out, restart: 'true', ...extra }, 'flag'));

describe('--restart deletes the old rollout file last', () => {
  it('a missing --base-url: refused, the old file intact', async () => {
    await expect(restart({ model: 'Qwen3-4B' })).rejects.toThrow(/--base-url/);
    expect(await readFile(out, 'utf8')).toBe(old);
  });

  it('an MCP server that does not start: refused, the old file intact', async () => {
    await expect(restart({ model: 'scripted:parallel', mcp: `stdio:${process.execPath} ${join(dir.path, 'no-such-server.mjs')}` })).rejects.toThrow(/--mcp/);
    expect(await readFile(out, 'utf8')).toBe(old);
  });

  it('a refused --spans file: refused, the old file intact', async () => {
    const spans = join(dir.path, 'spans.jsonl');
    await writeFile(`${spans}.partial`, 'not spans\n');
    await expect(restart({ model: 'scripted:parallel', spans })).rejects.toThrow(/--spans/);
    expect(await readFile(out, 'utf8')).toBe(old);
  });

  it('a dead endpoint: every episode fails, the old file intact; a working run then replaces it', async () => {
    const down = await startChatEndpoint(() => ({ status: 503 }));
    try {
      await expect(restart({ 'base-url': down.baseURL, model: 'Qwen3-4B', 'subagent-model': 'scripted:lookup' })).rejects.toMatchObject({ code: 'PARL_ERR_EPISODES' });
    } finally {
      await down.close();
    }
    expect(await readFile(out, 'utf8')).toBe(old);
    await restart({ model: 'scripted:serial' });
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { rollout_options: Record<string, string> });
    expect(lines.map((l) => l.rollout_options['model'])).toEqual(['scripted:serial', 'scripted:serial']);
  });
});

describe('--restart over an interrupted run with --spans', () => {
  it('a dead endpoint leaves both partial files byte-identical; a working restart starts both over', async () => {
    const out2 = join(dir.path, 'interrupted.jsonl');
    const spans = join(dir.path, 'interrupted-spans.jsonl');
    // The old run: stopped while its second task is scored, so its first line and spans are partial.
    const controller = new AbortController();
    (globalThis as { parlRestartStop?: () => void }).parlRestartStop = () => controller.abort();
    const scorer = join(dir.path, 'stop-at-second.mjs');
    await writeFile(scorer, 'export default (answer, task) => { if (task.id.endsWith("-1")) globalThis.parlRestartStop?.(); return 1; };\n');
    const flags = { tasks: '2', entities: '2', out: out2, spans, scorer: `module:${scorer}` };
    await expect(swarmRun(resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:parallel', ...flags }, 'flag'), { signal: controller.signal })).rejects.toMatchObject({ code: 'PARL_ERR_INTERRUPTED' });
    delete (globalThis as { parlRestartStop?: () => void }).parlRestartStop;
    const oldLines = await readFile(`${out2}.partial`, 'utf8');
    const oldSpans = await readFile(`${spans}.partial`, 'utf8');
    expect(oldLines.trim().split('\n')).toHaveLength(1);
    expect(oldSpans.trim().split('\n')).toHaveLength(1);

    const down = await startChatEndpoint(() => ({ status: 503 }));
    try {
      const dead = resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': down.baseURL, model: 'Qwen3-4B', 'subagent-model': 'scripted:lookup', restart: 'true', ...flags }, 'flag');
      await expect(swarmRun(dead)).rejects.toMatchObject({ code: 'PARL_ERR_EPISODES' });
    } finally {
      await down.close();
    }
    expect(await readFile(`${out2}.partial`, 'utf8')).toBe(oldLines);
    expect(await readFile(`${spans}.partial`, 'utf8')).toBe(oldSpans);

    await swarmRun(resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:serial', restart: 'true', ...flags }, 'flag'));
    expect((await readFile(out2, 'utf8')).trim().split('\n')).toHaveLength(2);
    // Only the new run's spans: one export request per episode, none of the old run's.
    expect((await readFile(spans, 'utf8')).trim().split('\n')).toHaveLength(2);
  });
});
