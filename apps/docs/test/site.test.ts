import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, documentedPackages, modulePagePath, REPO_ROOT, siteGuides, type SiteBuild } from './support/build-site.js';
import { CHROMIUM_ARGS, findChromium } from './support/chromium.js';
import { serveSite, SITE_ORIGIN } from './support/static-site.js';

const outDir = mkdtempSync(join(tmpdir(), 'parl-docs-site-'));
let build: SiteBuild;

beforeAll(() => {
  build = buildSite(outDir);
});

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

describe('the docs site build', () => {
  it('succeeds with no typedoc warning or error (warnings fail the build)', () => {
    expect(build.output).not.toMatch(/\[(warning|error)\]/);
    expect(build.status, build.output).toBe(0);
    expect(existsSync(join(outDir, 'index.html'))).toBe(true);
  });

  it('documents every package under packages/', () => {
    const onDisk = readdirSync(join(REPO_ROOT, 'packages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(REPO_ROOT, 'packages', entry.name, 'package.json')))
      .map((entry) => `packages/${entry.name}`)
      .sort();
    expect(documentedPackages().map((p) => p.dir).sort()).toEqual(onDisk);
    for (const pkg of documentedPackages()) {
      expect(existsSync(join(outDir, modulePagePath(pkg.name))), `${pkg.name} has no page`).toBe(true);
    }
  });

  it('lists every guide in docs/ (in reading order) and turns each into a page of its own', () => {
    const guides = readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'index.md');
    const listed = siteGuides().map((path) => basename(path));
    // docs/index.md is the landing page; every other guide must be in typedoc.json's projectDocuments.
    expect(guides.filter((g) => !listed.includes(g)), 'guides missing from apps/docs/typedoc.json projectDocuments').toEqual([]);
    const pages = readdirSync(join(outDir, 'documents')).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBe(guides.length);
  });
});

const lookup = findChromium();
if (lookup.skipReason !== undefined) {
  console.warn(`docs-site browser test skipped: ${lookup.skipReason}`);
}

describe.skipIf(lookup.skipReason !== undefined)(`the docs site in headless Chromium${lookup.skipReason === undefined ? '' : ` (skipped: ${lookup.skipReason})`}`, () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: lookup.path as string, args: [...CHROMIUM_ARGS] });
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Open one page of the site; collect console errors, page errors and missing files. */
  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const served = await serveSite(page, outDir);
    const response = await page.goto(`${SITE_ORIGIN}/${path}`, { waitUntil: 'load' });
    expect(response?.status(), `${path} did not load`).toBe(200);
    // The navigation tree is rendered by the site's own script: waiting for it proves the script ran.
    await page.waitForSelector('#tsd-nav-container a', { state: 'attached', timeout: 15_000 });
    problems.push(...served.missing.map((p) => `missing file: ${p}`));
    return { page, problems };
  }

  it('opens the index: the guides, and a link to every package', async () => {
    const { page, problems } = await open('index.html');
    expect(await page.getByRole('heading', { name: 'PARL-TS documentation' }).count()).toBe(1);
    for (const pkg of documentedPackages()) {
      expect(await page.locator(`#tsd-nav-container a[href$="${modulePagePath(pkg.name)}"]`).count(), `menu link to ${pkg.name}`).toBeGreaterThan(0);
    }
    expect(await page.locator('a[href*="documents/"]').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('searches: the search box finds computeReward and links to its page', async () => {
    const { page, problems } = await open('index.html');
    await page.click('#tsd-search-trigger');
    await page.fill('#tsd-search-input', 'computeReward');
    await page.waitForSelector('#tsd-search-results li a', { timeout: 15_000 });
    const hrefs = await page.locator('#tsd-search-results li a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.some((href) => /functions\/[\w.]*computeReward\.html$/.test(href)), hrefs.join(', ')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  for (const pkg of documentedPackages()) {
    it(`opens the page of ${pkg.name} with its exports listed`, async () => {
      const { page, problems } = await open(modulePagePath(pkg.name));
      await expect(page.locator('h1').first().textContent()).resolves.toContain(pkg.name);
      const exportLinks = page.locator('.col-content a[href^="../functions/"], .col-content a[href^="../classes/"], .col-content a[href^="../interfaces/"], .col-content a[href^="../variables/"], .col-content a[href^="../types/"]');
      expect(await exportLinks.count(), `${pkg.name} lists no export`).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
