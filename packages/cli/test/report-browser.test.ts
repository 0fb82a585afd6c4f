/// <reference lib="dom" />
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium, launchChromium, type Browser } from '@parl/test-support/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { writeRunFixture } from './support/run-fixture.js';
import { useTempDirs } from '@parl/test-support/temp-dir';
import { readFileSync, writeFileSync } from 'node:fs';
import { bestPoint, sweepPointRows } from '@parl/sim';
import { buildSweepReport } from '../src/internal/report/sweep-report.js';
import { THREE_POINTS, THREE_POINTS_INPUT } from './support/sweep-results.js';

const chromiumLookup = findChromium();
const HAVE_CHROMIUM = chromiumLookup.skipReason === undefined;
const SKIP_REASON = chromiumLookup.skipReason ?? '';
if (!HAVE_CHROMIUM) console.warn(`report-browser tests skipped: ${SKIP_REASON}`);

const tempDir = useTempDirs('cli');

interface PageCheck {
  errors: string[];
  charts: { type: string; points: number; inkedPixels: number; width: number }[];
}

async function openAndInspect(browser: Browser, file: string, expectedCharts: number): Promise<PageCheck> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('request', (req) => {
    if (!req.url().startsWith('file:')) errors.push(`network request: ${req.url()}`);
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction((n) => (window as unknown as { parlCharts?: unknown[] }).parlCharts?.length === n, expectedCharts, { timeout: 10_000 });
  const charts = await page.evaluate(() => {
    type ChartLike = { config: { type: string }; canvas: HTMLCanvasElement; data: { datasets: unknown[] }; getDatasetMeta(i: number): { data: unknown[] } };
    const list = (window as unknown as { parlCharts: ChartLike[] }).parlCharts;
    return list.map((chart) => {
      const ctx = chart.canvas.getContext('2d') as CanvasRenderingContext2D;
      const { data } = ctx.getImageData(0, 0, chart.canvas.width, chart.canvas.height);
      let inked = 0;
      for (let i = 3; i < data.length; i += 4) if ((data[i] as number) > 0) inked++;
      let points = 0;
      for (let d = 0; d < chart.data.datasets.length; d++) points += chart.getDatasetMeta(d).data.length;
      return { type: chart.config.type, points, inkedPixels: inked, width: chart.canvas.width };
    });
  });
  await page.close();
  return { errors, charts };
}

describe.skipIf(!HAVE_CHROMIUM)(HAVE_CHROMIUM ? 'reports in headless Chromium' : `reports in headless Chromium (skipped: ${SKIP_REASON})`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(chromiumLookup.path as string);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('the training report opens offline with no console errors and all five charts drawn', { timeout: 60_000 }, async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 40);
    expect((await parl(['report', dir])).code).toBe(0);
    const check = await openAndInspect(browser, join(dir, 'report.html'), 5);
    expect(check.errors).toEqual([]);
    expect(check.charts.map((c) => c.type)).toEqual(['line', 'line', 'line', 'scatter', 'line']);
    for (const chart of check.charts) {
      expect(chart.width).toBeGreaterThan(200);
      expect(chart.points).toBeGreaterThan(0);
      expect(chart.inkedPixels).toBeGreaterThan(2000);
    }
    // every data point of the line charts becomes an element: 2 λ × 40, 4 terms × 40, 3 rates × 40
    expect(check.charts.slice(0, 3).map((c) => c.points)).toEqual([80, 160, 120]);
    expect(check.charts[3]?.points).toBe(42);
  });

  it('a run that records assign rates gets the assign-rate chart, drawn like the others (issue 32)', { timeout: 60_000 }, async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 40);
    const metricsPath = join(dir, 'metrics.jsonl');
    const lines = readFileSync(metricsPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, number>);
    const withRates = lines.map((m, i) => ({ ...m, assign_rate: Math.min(1, i / 20), truncated_share: i < 10 ? 0.3 : 0, repeat_share: 0 }));
    writeFileSync(metricsPath, `${withRates.map((m) => JSON.stringify(m)).join('\n')}\n`);
    expect((await parl(['report', dir])).code).toBe(0);
    const check = await openAndInspect(browser, join(dir, 'report.html'), 6);
    expect(check.errors).toEqual([]);
    // λ, reward terms, then the assign rate and the truncated share (no repeat share: none repeated), 2 × 40 points.
    expect(check.charts[2]?.points).toBe(80);
    expect(check.charts[2]?.inkedPixels).toBeGreaterThan(2000);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('Over training, delegation was learned: the assign rate went from 0 (first step) to 1 (last tenth)');
  });

  it('the training report fits its page at 1280 px and at 800 px: no table wider than its card, no sideways scroll (issue 24)', { timeout: 60_000 }, async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 40);
    // The full summary parl train writes: every scripted baseline, each with its latency curve (the widest tables).
    const summaryPath = join(dir, 'summary.json');
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as { latency_to_target: unknown[]; baselines?: unknown[] };
    summary.baselines = ['serial', 'max-parallel', 'balanced'].map((policy, i) => ({
      policy, r_perf: 0.8734 + i / 100, critical_steps: 79.8734 - i * 20, total_steps: 79.8734 + i * 40, subagents: i * 21.4219, mean_width: i * 15.8957,
      finish_rate: i === 0 ? null : 0.9524, success_rate: 1, latency: summary.latency_to_target.map((_, j) => (j % 2 === 0 ? 61.125 + i : null)), same_as_trained: false,
    }));
    writeFileSync(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
    expect((await parl(['report', dir])).code).toBe(0);
    for (const width of [1280, 800]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(pathToFileURL(join(dir, 'report.html')).href);
      const fit = await page.evaluate(() => ({
        pageWidth: document.documentElement.scrollWidth,
        viewWidth: window.innerWidth,
        tables: Array.from(document.querySelectorAll('section.card')).map((card) => {
          const table = card.querySelector('table');
          const style = getComputedStyle(card);
          const inner = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return { caption: card.querySelector('h2')?.textContent ?? '', table: table === null ? 0 : table.scrollWidth, inner: Math.ceil(inner), cardRight: Math.ceil(card.getBoundingClientRect().right) };
        }),
      }));
      await page.close();
      expect(fit.tables.filter((t) => t.table > 0).length, `tables at ${width} px`).toBeGreaterThanOrEqual(4);
      for (const t of fit.tables) {
        expect(t.table, `${t.caption} at ${width} px`).toBeLessThanOrEqual(t.inner);
        expect(t.cardRight, `${t.caption} card at ${width} px`).toBeLessThanOrEqual(fit.viewWidth);
      }
      expect(fit.pageWidth, `page at ${width} px`).toBeLessThanOrEqual(fit.viewWidth);
    }
  });

  it('the schedule chart of parl schedule --html opens with no console errors', { timeout: 60_000 }, async () => {
    const file = join(tempDir(), 'schedule.html');
    expect((await parl(['schedule', 'cosine:0.1:0:10000', '--html', file])).code).toBe(0);
    const check = await openAndInspect(browser, file, 1);
    expect(check.errors).toEqual([]);
    expect(check.charts[0]?.points).toBe(201);
    expect(check.charts[0]?.inkedPixels).toBeGreaterThan(2000);
  });

  it('the sweep report opens offline with no console errors, its scatter drawn and a verdict per grid point', { timeout: 60_000 }, async () => {
    const file = join(tempDir(), 'sweep-report.html');
    writeFileSync(file, buildSweepReport(THREE_POINTS_INPUT, sweepPointRows(THREE_POINTS), bestPoint(sweepPointRows(THREE_POINTS))));
    const check = await openAndInspect(browser, file, 1);
    expect(check.errors).toEqual([]);
    expect(check.charts[0]?.type).toBe('scatter');
    expect(check.charts[0]?.points).toBe(9); // 6 runs + 3 point means
    expect(check.charts[0]?.inkedPixels).toBeGreaterThan(2000);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    const verdicts = await page.$$eval('#sweep-points td.verdict', (cells) => cells.map((c) => c.getAttribute('data-verdict')));
    expect(verdicts).toEqual(['collapsed', 'spurious', 'parallel']);
    expect(await page.textContent('#sweep-verdict')).toContain('Best parallel point: lambda1=linear:0.3:0:200');
    await page.close();
  });
});
