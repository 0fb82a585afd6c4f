/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findChromium, launchChromium, type Browser } from '../src/chromium.js';

const lookup = findChromium();
if (lookup.skipReason !== undefined) console.warn(`test-support Chromium test skipped: ${lookup.skipReason}`);

describe('findChromium', () => {
  it('names the path it looked at when nothing executable is there', () => {
    const missing = findChromium({ CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(missing.path).toBeUndefined();
    expect(missing.skipReason).toBe("no executable Chromium at /nonexistent/chromium (install Debian's chromium, as .ci/run does, or set CHROMIUM_PATH)");
  });

  it('fails instead of skipping under CI=true', () => {
    expect(() => findChromium({ CHROMIUM_PATH: '/nonexistent/chromium', CI: 'true' })).toThrow(
      "CI=true and a test needs what is missing: no executable Chromium at /nonexistent/chromium (install Debian's chromium, as .ci/run does, or set CHROMIUM_PATH)",
    );
  });

  it('launches with the project flags', () => {
    expect(CHROMIUM_ARGS).toEqual(['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']);
  });
});

describe.skipIf(lookup.skipReason !== undefined)(`launchChromium${lookup.skipReason === undefined ? '' : ` (skipped: ${lookup.skipReason})`}`, () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>support</title><p id="said">asked for ${req.url ?? ''}</p><script>document.title = 'ran ' + (1 + 2);</script>`);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await launchChromium(lookup.path as string);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('opens a page from a loopback server, runs its script and reads its text', async () => {
    const page = await (browser as Browser).newPage();
    await page.goto(`${origin}/hello?x=1`);
    expect(await page.textContent('#said')).toBe('asked for /hello?x=1');
    expect(await page.title()).toBe('ran 3');
    expect(await page.evaluate(() => navigator.userAgent)).toContain('HeadlessChrome');
  });

  it('gives each launch a fresh profile: storage written by one browser is absent from the next', async () => {
    const first = await (browser as Browser).newPage();
    await first.goto(`${origin}/`);
    await first.evaluate(() => localStorage.setItem('left', 'behind'));
    const second = await launchChromium(lookup.path as string);
    try {
      const page = await second.newPage();
      await page.goto(`${origin}/`);
      expect(await page.evaluate(() => localStorage.getItem('left'))).toBeNull();
    } finally {
      await second.close();
    }
  });
});
