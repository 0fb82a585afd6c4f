/// <reference lib="dom" />
/**
 * Report tables in headless Chromium: header cells wrap between words, never inside one
 * ("traine/d policy", issue 29), at the widths people read them at, and the tables still fit
 * their cards.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium, launchChromium, type Browser } from '@parl/test-support/chromium';
import { useTempDirs } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { writeRunFixture } from './support/run-fixture.js';

const chromiumLookup = findChromium();
const HAVE_CHROMIUM = chromiumLookup.skipReason === undefined;
if (!HAVE_CHROMIUM) console.warn(`report header tests skipped: ${chromiumLookup.skipReason ?? ''}`);

const tempDir = useTempDirs('cli-report-headers');

/** Header cells whose text wraps inside a word, with where: `trained policy` → `traine|d policy`. */
async function midWordBreaks(browser: Browser, file: string, width: number): Promise<{ broken: string[]; headers: number; overflow: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  try {
    await page.goto(pathToFileURL(file).href);
    return await page.evaluate(() => {
      const broken: string[] = [];
      const cells = Array.from(document.querySelectorAll('th'));
      for (const th of cells) {
        const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
        let text = '';
        let lastTop: number | undefined;
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const value = node.textContent ?? '';
          for (let i = 0; i < value.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            const ch = value[i] as string;
            if (rect !== undefined && ch.trim() !== '') {
              const prev = text[text.length - 1];
              // A new line that starts right after a letter or digit: the word was cut.
              if (lastTop !== undefined && rect.top > lastTop + 2 && prev !== undefined && /[\p{L}\p{N}_]/u.test(prev) && /[\p{L}\p{N}_]/u.test(ch)) {
                broken.push(`${text}|${value.slice(i)}`);
              }
              lastTop = rect.top;
            }
            text += ch;
          }
        }
      }
      const overflow = Array.from(document.querySelectorAll('section.card table')).flatMap((table) => {
        const card = table.closest('section.card') as HTMLElement;
        const style = getComputedStyle(card);
        const inner = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return (table as HTMLElement).scrollWidth > Math.ceil(inner) ? [card.querySelector('h2')?.textContent ?? '?'] : [];
      });
      return { broken, headers: cells.length, overflow };
    });
  } finally {
    await page.close();
  }
}

describe.skipIf(!HAVE_CHROMIUM)('report header cells', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(chromiumLookup.path as string);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('the training report, with every baseline: no header cell breaks inside a word at 1280 and 820 px, and every table fits its card', { timeout: 60_000 }, async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 40);
    const summaryPath = join(dir, 'summary.json');
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as { latency_to_target: unknown[]; baselines?: unknown[] };
    summary.baselines = ['serial', 'max-parallel', 'balanced'].map((policy, i) => ({
      policy, r_perf: 0.8734 + i / 100, critical_steps: 79.8734 - i * 20, total_steps: 79.8734 + i * 40, subagents: i * 21.4219, mean_width: i * 15.8957,
      finish_rate: i === 0 ? null : 0.9524, success_rate: 1, latency: summary.latency_to_target.map((_, j) => (j % 2 === 0 ? 61.125 + i : null)), same_as_trained: false,
    }));
    writeFileSync(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);
    expect((await parl(['report', dir])).code).toBe(0);
    for (const width of [1280, 820]) {
      const check = await midWordBreaks(browser, join(dir, 'report.html'), width);
      expect(check.headers).toBeGreaterThan(8);
      expect(check.broken, `at ${width} px`).toEqual([]);
      expect(check.overflow, `at ${width} px`).toEqual([]);
    }
  });
});
