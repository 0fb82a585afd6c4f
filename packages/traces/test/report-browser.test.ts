/**
 * The trace report in headless Chromium (playwright-core, the system Chromium): the page built
 * from the framework fixtures, a nested record and 2000 generated traces, opened offline at 1280
 * and 800 px. Every trace id is on the page, nothing is logged as an error, nothing is fetched,
 * and no element is cut off sideways. Screenshots of both widths go to
 * `PARL_REPORT_SCREENSHOTS` when set (how docs/images/trace-report-*.png were made), else to the
 * test's temp folder.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium, launchChromium, type Browser } from '@parl/test-support/chromium';
import { horizontalOverflow, watchPage } from '@parl/test-support/page-checks';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceReportHtml, type TraceReportEntry } from '../src/index.js';
import { fixtureTraces, generatedTrace, seeded, TYPICAL } from './support/report-traces.js';

const chromium = findChromium();
if (chromium.skipReason !== undefined) console.warn(`trace report browser tests skipped: ${chromium.skipReason}`);

const NESTED: TraceReportEntry = {
  record: {
    id: 'nested-subagents-demo',
    stages: [
      { main_steps: 1, sub_steps: [{ stages: [{ main_steps: 1, sub_steps: [2, 3] }, { main_steps: 1, sub_steps: [] }], finished: true }, { steps: 2, finished: false }] },
      { main_steps: 1, sub_steps: [] },
    ],
  },
};

describe.skipIf(chromium.path === undefined)(chromium.path === undefined ? `the trace report in headless Chromium (skipped: ${chromium.skipReason})` : 'the trace report in headless Chromium', () => {
  let browser: Browser;
  let temp: TempDir;
  beforeAll(async () => {
    browser = await launchChromium(chromium.path as string);
    temp = await makeTempDir('trace-report');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await temp?.remove();
  });

  it('shows every trace id, logs no error, fetches nothing and cuts nothing off at 1280 and 800 px', { timeout: 300_000 }, async () => {
    const random = seeded(23);
    const traces = [...(await fixtureTraces()), NESTED, ...Array.from({ length: 2000 }, (_, i) => generatedTrace(`generated-${i}`, random, TYPICAL))];
    const file = join(temp.path, 'traces.html');
    // The worked example and the fixtures' serial-collapse traces sort first by saving among the drawn.
    writeFileSync(file, traceReportHtml(traces, { drawn: 12 }));
    const shots = process.env['PARL_REPORT_SCREENSHOTS'] ?? temp.path;
    for (const width of [1280, 800]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const problems = watchPage(page);
      await page.goto(pathToFileURL(file).href);
      const text = await page.locator('body').innerText();
      const missing = traces.map((t) => String(t.record['id'])).filter((id) => !text.includes(id));
      expect(missing).toEqual([]);
      expect(await page.locator('section.trace').count()).toBe(12);
      expect(await horizontalOverflow(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.screenshot({ path: join(shots, `trace-report-${width}.png`), clip: { x: 0, y: 0, width, height: 1800 }, fullPage: true });
      await page.close();
    }
  });

  it('draws a nested sub-agent on nested rows, with its own critical path', { timeout: 60_000 }, async () => {
    const file = join(temp.path, 'nested.html');
    writeFileSync(file, traceReportHtml([NESTED]));
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const problems = watchPage(page);
    await page.goto(pathToFileURL(file).href);
    const labels = await page.locator('section.trace .lbl').allTextContents();
    expect(labels).toEqual(['orchestrator', 'sub-agent 1', '1.1', '1.2', 'sub-agent 2']);
    // Bars on the critical path: the orchestrator twice, the nested sub-agent's own steps twice, its longer child, and the outline of the nested sub-agent.
    expect(await page.locator('section.trace .b.c').count()).toBe(6);
    expect(await horizontalOverflow(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(process.env['PARL_REPORT_SCREENSHOTS'] ?? temp.path, 'trace-report-nested.png'), fullPage: true });
    await page.close();
  });
});
