/// <reference lib="dom" />
/**
 * `parl swarm eval --model scripted:parallel --report eval.html` as a new user first runs it: no
 * server anywhere, and the report's latency-to-target figure drawn with data, in headless Chromium.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium, launchChromium } from '@parl/test-support/chromium';
import { watchPage } from '@parl/test-support/page-checks';
import { useTempDirs } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';

const tempDir = useTempDirs('cli-swarm-scripted');
const chromium = findChromium();

interface Evaluation {
  latency_to_target: { target: number; swarm: number | null; single_agent: number | null }[];
  swarm: { subagents: number };
  serial_collapse: number;
}

describe('parl swarm with scripted orchestrators, no endpoint', () => {
  it('a model on an endpoint without --base-url is one line naming the flag (exit code 2)', async () => {
    const r = await parl(['swarm', 'run', '--model', 'qwen3-4b', '--tasks', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^parl swarm run: --base-url must be .*--model qwen3-4b.*scripted:parallel.*missing/);
  });

  it('scripted models on a user\'s own tasks file: the hint says they have nothing to look up, never that the server\'s tool calling is off', async () => {
    const dir = tempDir();
    const file = join(dir, 'mine.jsonl');
    await writeFile(file, '{"id":"q1","prompt":"Capital of Australia?","answer":"Canberra"}\n{"id":"q2","prompt":"Two plus two?","answer":"4"}\n');
    const r = await parl(['swarm', 'eval', '--model', 'scripted:parallel', '--tasks-file', file, '--out', join(dir, 'mine.json')]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/tool calling|--enable-auto-tool-choice|malformed/);
    expect(r.stderr).toMatch(
      /^parl swarm eval: note: \d+ of the \d+ tool calls of scripted:parallel failed: no server is involved; scripted models look facts up with the built-in suites' search and open, which the tasks of .*mine\.jsonl do not have, so they have nothing to look up and score 0 .*run a model on an endpoint \(--base-url URL --model NAME\) to score your own tasks$/m,
    );
  });

  it('scripted:serial: the report counts serial collapse in every task, and the swarm needs more critical steps than the single agent', async () => {
    const out = join(tempDir(), 'serial.json');
    const r = await parl(['swarm', 'eval', '--model', 'scripted:serial', '--tasks', '3', '--out', out]);
    expect(r.code).toBe(0);
    const evaluation = JSON.parse(await readFile(out, 'utf8')) as Evaluation;
    expect(evaluation.serial_collapse).toBe(3);
    for (const row of evaluation.latency_to_target) expect(row.swarm as number).toBeGreaterThan(row.single_agent as number);
  });

  it.skipIf(chromium.path === undefined)('scripted:parallel: the report draws the latency-to-target figure with both curves, the swarm\'s below', async () => {
    const dir = tempDir();
    const report = join(dir, 'eval.html');
    const out = join(dir, 'eval.json');
    const r = await parl(['swarm', 'eval', '--model', 'scripted:parallel', '--suite', 'mixed', '--tasks', '4', '--report', report, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^parl swarm eval: r_perf 1 \(swarm\) vs 1 \(single agent\)/);
    const evaluation = JSON.parse(await readFile(out, 'utf8')) as Evaluation;
    expect(evaluation.serial_collapse).toBe(0);
    const browser = await launchChromium(chromium.path as string);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems = watchPage(page);
      await page.goto(pathToFileURL(report).href);
      await page.waitForFunction(() => document.querySelectorAll('canvas').length === 1);
      const drawn = await page.evaluate(() => {
        type ChartLike = { canvas: HTMLCanvasElement; data: { datasets: { label: string; data: { x: number; y: number }[] }[] }; getDatasetMeta(i: number): { data: unknown[] } };
        const canvas = document.querySelector('canvas') as HTMLCanvasElement;
        const chart = (window as unknown as { Chart: { getChart(c: HTMLCanvasElement): ChartLike | undefined } }).Chart.getChart(canvas) as ChartLike;
        const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
        const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
        let inked = 0;
        for (let i = 3; i < data.length; i += 4) if ((data[i] as number) > 0) inked++;
        return {
          title: document.querySelector('h2')?.textContent,
          datasets: chart.data.datasets.map((d, i) => ({ label: d.label, points: d.data, elements: chart.getDatasetMeta(i).data.length })),
          inked,
        };
      });
      const [swarm, single] = drawn.datasets;
      expect([swarm?.label, single?.label]).toEqual(['swarm', 'single agent']);
      // Every target reached by both: one drawn point per target on each curve.
      expect(swarm?.elements).toBe(evaluation.latency_to_target.length);
      expect(single?.elements).toBe(evaluation.latency_to_target.length);
      for (const [i, row] of evaluation.latency_to_target.entries()) {
        expect(swarm?.points[i]).toEqual({ x: row.target, y: row.swarm });
        expect(single?.points[i]).toEqual({ x: row.target, y: row.single_agent });
        expect(row.swarm as number).toBeLessThan(row.single_agent as number);
      }
      expect(drawn.inked).toBeGreaterThan(2000);
      await page.screenshot({ path: join(dir, 'eval.png'), fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});

describe('--token-trajectories without token ids', () => {
  it('a model that returns no token ids (a scripted one) is one line naming the call and what is missing (exit code 1)', async () => {
    const r = await parl(['swarm', 'run', '--model', 'scripted:parallel', '--tasks', '1', '--token-trajectories']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^parl swarm run: token trajectory: orchestrator call 0: prompt_token_ids missing \(the endpoint must return token ids/);
  });
});
