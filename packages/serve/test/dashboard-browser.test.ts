/**
 * The live dashboard at `/` in headless Chromium (playwright-core, the system Chromium): a real
 * server on loopback, the page opened once, then records posted to `/v1/rewards` and agent traces
 * to `/v1/traces`. The page must show the new numbers and the serial-collapse findings without a
 * reload (over its server-sent events), with no console error and no request but its own.
 */
import { criticalSteps, labelReward } from '@parl/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { findChromium, launchChromium, type Browser, type Page } from '@parl/test-support/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTraces } from './support/agent-spans.js';
import { startServer, type TestServer } from './support/server.js';

/** The page's `document`, as far as the callbacks run in the browser use it (no DOM lib here: it would change `fetch`'s body types). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

const chromiumLookup = findChromium();
const HAVE_CHROMIUM = chromiumLookup.skipReason === undefined;
const SKIP_REASON = chromiumLookup.skipReason ?? '';
if (!HAVE_CHROMIUM) console.warn(`dashboard browser tests skipped: ${SKIP_REASON}`);

/** Bound on each wait for the page to change (not a timing assertion: a stuck page fails here). */
const WAIT_MS = 20_000;

const STEP_100 = [
  { training_step: 100, num_subagents: 4, completed_subtasks: 3, assigned_subtasks: 4, success: true, quality: 0.8 },
  { training_step: 100, num_subagents: 10, r_perf: 0.4 },
];
const STEP_200 = [
  { training_step: 200, num_subagents: 2, completed_subtasks: 2, assigned_subtasks: 2, success: true, quality: 1 },
  { training_step: 200, num_subagents: 7, r_perf: 0.9 },
];

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The number a tile shows (the page prints 3 decimals at most, trailing zeros cut). */
async function tile(page: Page, id: string): Promise<number> {
  return Number(await page.textContent(`#${id}`));
}

/** Wait until the element's text is `text`. */
async function textIs(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(([sel, want]) => document.querySelector(sel as string)?.textContent === want, [selector, text] as const, { timeout: WAIT_MS });
}

/** Dots drawn in the chart of `field` in a chart grid. */
async function dots(page: Page, grid: string, field: string): Promise<number> {
  return page.locator(`#${grid} figure[data-field="${field}"] circle`).count();
}

describe.skipIf(!HAVE_CHROMIUM)(HAVE_CHROMIUM ? 'the live dashboard in headless Chromium' : `the live dashboard in headless Chromium (skipped: ${SKIP_REASON})`, () => {
  let browser: Browser;
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ quietPeriodMs: 30 });
    browser = await launchChromium(chromiumLookup.path as string);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.stop();
  });

  it('updates its numbers, charts and serial-collapse findings live as rewards and traces arrive, without a reload', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const requests: string[] = [];
    let navigations = 0;
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('request', (req) => requests.push(new URL(req.url()).pathname));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });

    await page.goto(`${s.url}/`);
    await textIs(page, '#status', 'live');
    expect(await page.textContent('#episodes')).toBe('0');
    expect(await page.textContent('#tile-serial_collapse')).toBe('–');
    expect(await page.isHidden('#per-step')).toBe(true);
    // A marker that a reload would wipe.
    await page.evaluate(() => {
      (globalThis as unknown as { parlMarker: number }).parlMarker = 42;
    });

    // Records at two training steps: the totals and the per-step charts follow.
    expect((await s.post('/v1/rewards', JSON.stringify(STEP_100))).status).toBe(200);
    await textIs(page, '#episodes', '2');
    expect((await s.post('/v1/rewards', JSON.stringify(STEP_200))).status).toBe(200);
    await textIs(page, '#episodes', '4');
    const rewards = [...STEP_100, ...STEP_200].map((r) => labelReward(r));
    expect(await tile(page, 'tile-total_reward')).toBeCloseTo(mean(rewards.map((r) => r.total_reward)), 3);
    expect(await tile(page, 'tile-num_subagents')).toBeCloseTo(mean([...STEP_100, ...STEP_200].map((r) => r.num_subagents)), 3);
    expect(await page.textContent('#tile-serial_collapse')).toBe('–');
    expect(await page.isVisible('#per-step')).toBe(true);
    expect(await dots(page, 'per-step-charts', 'total_reward')).toBe(2);

    // Six agent traces, every other one serial: half of the traced episodes are serial collapse.
    const { spans, expected } = await agentTraces(6);
    expect(expected.filter((e) => e.finding.serial_collapse)).toHaveLength(3);
    expect((await s.post('/v1/traces', JsonTraceSerializer.serializeRequest(spans) as Uint8Array)).status).toBe(200);
    await textIs(page, '#episodes', '10');
    await textIs(page, '#tile-serial_collapse', '0.5');
    const traced = expected.map((e) => criticalSteps(e.record.stages ?? []));
    expect(await tile(page, 'tile-critical_steps')).toBeCloseTo(mean(traced.map((c) => c.critical_steps)), 3);
    expect(await tile(page, 'tile-parallelism')).toBeCloseTo(mean(traced.map((c) => c.parallelism)), 3);
    expect(await dots(page, 'over-time', 'serial_collapse')).toBeGreaterThan(0);

    // Still the first page load, its one event stream, nothing else fetched, no error.
    expect(await page.evaluate(() => (globalThis as unknown as { parlMarker?: number }).parlMarker)).toBe(42);
    expect(navigations).toBe(1);
    expect(requests).toEqual(['/', '/events']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
