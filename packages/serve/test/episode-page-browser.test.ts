/**
 * One episode's page: `GET /v1/episodes/{id}` answers the trace report of that episode when a
 * browser asks for HTML, and the JSON otherwise; the dashboard's form opens it. A real server on
 * loopback with a token, real OpenTelemetry SDK traces, headless Chromium at 1280 and 800 px.
 */
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { findChromium, launchChromium, type Browser } from '@parl/test-support/chromium';
import { horizontalOverflow, watchPage } from '@parl/test-support/page-checks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTraces } from './support/agent-spans.js';
import { startServer, type TestServer } from './support/server.js';

const chromium = findChromium();
if (chromium.skipReason !== undefined) console.warn(`episode page browser tests skipped: ${chromium.skipReason}`);

const TOKEN = 's3cret';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('one episode as a page', () => {
  let s: TestServer;
  let ids: string[];
  beforeAll(async () => {
    s = await startServer({ quietPeriodMs: 20, token: TOKEN });
    const { spans, expected } = await agentTraces(2);
    ids = expected.map((e) => e.traceId);
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
    expect((await s.post('/v1/traces', JsonTraceSerializer.serializeRequest(spans) as Uint8Array, auth)).status).toBe(200);
    // Wait (bounded) until both traces became episodes after the quiet period.
    for (let tries = 0; tries < 200; tries++) {
      const found = await Promise.all(ids.map((id) => fetch(`${s.url}/v1/episodes/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } })));
      if (found.every((r) => r.status === 200)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('answers JSON to API clients and the page to a browser; the query token is taken for the page only', async () => {
    const id = ids[0] as string;
    const json = await fetch(`${s.url}/v1/episodes/${id}`, { headers: { authorization: `Bearer ${TOKEN}`, accept: '*/*' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await json.json()) as { finding: { serial_collapse: boolean } }).finding.serial_collapse).toBe(true);
    const html = await fetch(`${s.url}/v1/episodes/${id}`, { headers: { authorization: `Bearer ${TOKEN}`, accept: BROWSER_ACCEPT } });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('vary')).toMatch(/accept/i);
    const text = await html.text();
    expect(text).toContain(`<h1>Episode ${id}</h1>`);
    expect(text).toContain('Serial collapse.');
    expect((await fetch(`${s.url}/v1/episodes/${id}?token=${TOKEN}`, { headers: { accept: BROWSER_ACCEPT } })).status).toBe(200);
    expect((await fetch(`${s.url}/v1/episodes/${id}?token=${TOKEN}`, { headers: { accept: 'application/json' } })).status).toBe(401);
    expect((await fetch(`${s.url}/v1/episodes/${id}`, { headers: { accept: BROWSER_ACCEPT } })).status).toBe(401);
    expect((await fetch(`${s.url}/v1/episodes/${id}/outcome?token=${TOKEN}`, { headers: { accept: BROWSER_ACCEPT } })).status).toBe(401);
  });

  describe.skipIf(chromium.path === undefined)(chromium.path === undefined ? `in headless Chromium (skipped: ${chromium.skipReason})` : 'in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium(chromium.path as string);
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('opens from the dashboard and shows the episode drawn, with no error and nothing cut off at 1280 and 800 px', { timeout: 60_000 }, async () => {
      for (const [width, id] of [[1280, ids[0]], [800, ids[1]]] as const) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        const problems = watchPage(page, (url) => url.startsWith(s.url) || url.startsWith('data:'));
        await page.goto(`${s.url}/?token=${TOKEN}`);
        await page.fill('#episode-id', id as string);
        await Promise.all([page.waitForURL(`**/v1/episodes/${id}?token=${TOKEN}`), page.click('#open-episode button')]);
        expect(await page.textContent('h1')).toBe(`Episode ${id}`);
        expect(await page.locator('section.trace').count()).toBe(1);
        expect(await page.locator('section.trace .b.c').count()).toBeGreaterThan(0);
        expect(await horizontalOverflow(page)).toEqual([]);
        expect(problems).toEqual([]);
        await page.close();
      }
    });
  });
});
