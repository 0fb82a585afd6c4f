import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, type Browser } from '../src/chromium.js';
import { horizontalOverflow, watchPage } from '../src/page-checks.js';

const chromium = findChromium();

describe.skipIf(chromium.path === undefined)(chromium.path === undefined ? `page checks (skipped: ${chromium.skipReason})` : 'page checks in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(chromium.path as string);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('finds what is cut off sideways, and nothing on a page that fits', { timeout: 30_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.setContent('<body style="margin:0"><p>fits</p><div id="wide" style="width:1200px">wide</div><span class="cut" style="display:block;width:40px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">a label much longer than forty pixels</span></body>');
    const found = await horizontalOverflow(page);
    expect(found).toContain('document is 1200px wide in a 800px window');
    expect(found).toContain('div#wide reaches 1200px');
    expect(found.some((f) => f.startsWith('span.cut clips'))).toBe(true);
    await page.setContent('<body style="margin:0"><p>fits</p></body>');
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.close();
  });

  it('collects console errors, page errors and requests leaving the page', { timeout: 30_000 }, async () => {
    const page = await browser.newPage();
    const problems = watchPage(page);
    await page.setContent('<body><script>console.error("boom"); setTimeout(() => { throw new Error("late"); }); fetch("http://127.0.0.1:9/x").catch(() => {});</script></body>');
    await expect.poll(() => problems.includes('page error: late') && problems.includes('request: http://127.0.0.1:9/x'), { timeout: 10_000 }).toBe(true);
    expect(problems).toContain('console error: boom');
    expect(problems).toContain('page error: late');
    expect(problems).toContain('request: http://127.0.0.1:9/x');
    await page.close();
  });
});
