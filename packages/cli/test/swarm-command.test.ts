import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startLocalLlmServer, type LocalLlmServer } from '@parl/test-support/local-llm/server';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { findChromium, launchChromium } from '@parl/test-support/chromium';
import { watchPage } from '@parl/test-support/page-checks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';

let dir: TempDir;
let server: LocalLlmServer;

beforeAll(async () => {
  dir = await makeTempDir('cli-swarm');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  // The suites' prompts with four tools' schemas pass the tiny model's 2048 tokens (one per byte).
  server = await startLocalLlmServer({ modelPath: model.path, contextSize: 8192 });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await dir?.remove();
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('parl swarm', () => {
  it('a bad or missing flag is one line naming it (exit code 2)', async () => {
    for (const [args, pattern] of [
      [['swarm', 'run', '--model', 'm'], /--base-url/],
      [['swarm', 'run', '--base-url', 'ftp://x', '--model', 'm'], /--base-url.*Expected an http\(s\) URL/],
      [['swarm', 'run', '--base-url', 'http://x', '--model', 'm', '--concurrency', '0'], /--concurrency/],
      [['swarm', 'eval', '--base-url', 'http://x', '--model', 'm', '--targets', '0.5,2'], /--targets/],
    ] as const) {
      const r = await parl(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')[0]).toMatch(pattern);
    }
  });

  it('an unreachable endpoint fails each episode after the bounded retries: one line per task, then the count (exit code 1)', async () => {
    const port = await closedPort();
    const r = await parl(['swarm', 'run', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'm', '--tasks', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^parl swarm run: task wide-s1-0 failed \(wide-s1-0\/rollout-0\): model .*m failed after 3 attempts: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/),
      expect.stringMatching(/^parl swarm run: task wide-s1-1 failed \(wide-s1-1\/rollout-0\): model .*m failed after 3 attempts: cannot reach /),
      'parl swarm run: 2 episodes failed (no line and no reward for them): with --out FILE a rerun of the same command runs only the failed episodes',
    ]);
  });

  it('a run of one episode that fails says so in one line: the count of 1 would add nothing (exit code 1)', async () => {
    const port = await closedPort();
    const r = await parl(['swarm', 'run', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'm', '--tasks', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^parl swarm run: task wide-s1-0 failed \(wide-s1-0\/rollout-0\): model .*m failed after 3 attempts: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/),
    ]);
  });

  it('runs on a real endpoint: rollout lines in --out, and --spans that parl trace reads back to the same numbers', async () => {
    const out = join(dir.path, 'rollouts.jsonl');
    const spans = join(dir.path, 'spans.jsonl');
    const r = await parl(['swarm', 'run', '--base-url', server.baseURL, '--model', server.modelName, '--subagents', 'scripted', '--suite', 'deep', '--tasks', '1', '--group-size', '2', '--limits', 'browsecomp', '--out', out, '--spans', spans]);
    expect(r.stderr).toMatch(/^parl swarm run: 2 episodes in /);
    expect(r.code).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['group_id'], l['sample']])).toEqual([['deep-s1-0', 0], ['deep-s1-0', 1]]);
    for (const l of lines) expect(typeof l['advantage']).toBe('number');
    const traced = await parl(['trace', '--in', spans]);
    expect(traced.code).toBe(0);
    const records = traced.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const again = await parl(['critical-steps'], records.map((x) => JSON.stringify(x)).join('\n'));
    const back = again.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(back.map((b) => [b['critical_steps'], b['total_steps']])).toEqual(lines.map((l) => [l['critical_steps'], l['total_steps']]));
  }, 240_000);

  it('runs a task file on a real model: every record carries its score and the row\'s metadata', async () => {
    const out = join(dir.path, 'qa.jsonl');
    const tasksFile = fileURLToPath(new URL('../../../examples/tasks/qa-exact.csv', import.meta.url));
    const r = await parl(['swarm', 'run', '--base-url', server.baseURL, '--model', server.modelName, '--subagents', 'scripted', '--tasks-file', tasksFile, '--limits', 'browsecomp', '--out', out]);
    expect(r.stderr).toMatch(/^parl swarm run: 3 episodes in /);
    expect(r.code).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['task_id'], (l['score'] as { scorer: string }).scorer])).toEqual([
      ['qa-capital', 'exact'],
      ['qa-boiling', 'number:0.5'],
      ['qa-authors', 'includes'],
    ]);
    for (const l of lines) expect((l['score'] as { r_perf: number }).r_perf).toBe(l['r_perf']);
    expect(lines[0]?.['metadata']).toEqual({ set: 'geography' });
  }, 240_000);

  const chromium = findChromium();
  it.skipIf(chromium.path === undefined)('eval writes the evaluation and an HTML report that opens in Chromium with its table and both curves', async () => {
    const out = join(dir.path, 'eval.json');
    const report = join(dir.path, 'eval.html');
    const r = await parl(['swarm', 'eval', '--base-url', server.baseURL, '--model', server.modelName, '--subagents', 'scripted', '--suite', 'deep', '--tasks', '1', '--limits', 'browsecomp', '--targets', '0,0.5', '--out', out, '--report', report]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^parl swarm eval: r_perf /);
    const evaluation = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
    expect(evaluation).toMatchObject({ model: server.modelName, suite: 'deep', tasks_file: null, tasks: 1 });
    // Target 0 is reached at the smallest budget by both modes.
    expect((evaluation['latency_to_target'] as { swarm: unknown; single_agent: unknown }[])[0]?.swarm).toEqual(expect.any(Number));
    const browser = await launchChromium(chromium.path as string);
    try {
      const page = await browser.newPage();
      const problems = watchPage(page);
      await page.goto(pathToFileURL(report).href);
      await page.waitForFunction(() => document.querySelectorAll('canvas').length === 1);
      expect(await page.$$eval('#summary tbody tr', (rows) => rows.map((row) => row.querySelector('th')?.textContent))).toEqual(['swarm', 'single agent']);
      const datasets = await page.evaluate(() => {
        const chart = (window as unknown as { Chart: { getChart(c: HTMLCanvasElement): { data: { datasets: { label: string; data: unknown[] }[] } } | undefined } }).Chart.getChart(document.querySelector('canvas') as HTMLCanvasElement);
        return chart?.data.datasets.map((d) => [d.label, d.data.length]);
      });
      expect(datasets).toEqual([['swarm', expect.any(Number)], ['single agent', expect.any(Number)]]);
      expect(datasets?.[0]?.[1]).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 240_000);
});
