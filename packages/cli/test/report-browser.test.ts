/// <reference lib="dom" />
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium, launchChromium, type Browser } from '@parl/test-support/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { writeRunFixture } from './support/run-fixture.js';
import { useTempDirs } from './support/temp-dir.js';
import { writeFileSync } from 'node:fs';
import { buildSweepReport } from '../src/report/sweep-report.js';
import { THREE_POINTS, THREE_POINTS_INPUT } from './support/sweep-results.js';

const chromiumLookup = findChromium();
const HAVE_CHROMIUM = chromiumLookup.skipReason === undefined;
const SKIP_REASON = chromiumLookup.skipReason ?? '';
if (!HAVE_CHROMIUM) console.warn(`report-browser tests skipped: ${SKIP_REASON}`);

const tempDir = useTempDirs();

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
    writeFileSync(file, buildSweepReport(THREE_POINTS_INPUT, THREE_POINTS));
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
