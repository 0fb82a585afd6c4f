import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, documentedPackages, modulePagePath, REPO_ROOT, siteGuides, type SiteBuild } from './support/build-site.js';
import { findChromium, launchChromium, type Browser, type Page } from '@parl/test-support/chromium';
import { serveSite, SITE_ORIGIN } from './support/static-site.js';

const outDir = mkdtempSync(join(tmpdir(), 'parl-docs-site-'));

/** Every HTML file under `dir`. */
function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => join(e.parentPath, e.name));
}

/** The text a reader sees in an HTML page: tags, scripts and styles removed, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * In the page: the elements of the content column that run under the right-hand sidebar (past
 * where its text starts) or off the window, skipping what is inside a box that scrolls or clips
 * on its own. Also whether the whole page scrolls sideways.
 */
function overflowIn(): { pageScrollsSideways: boolean; sticking: string[] } {
  const column = document.querySelector('.col-content');
  const toc = document.querySelector('.page-menu');
  const sticking: string[] = [];
  if (column !== null) {
    const tocBox = toc?.getBoundingClientRect();
    const right =
      tocBox !== undefined && tocBox.width > 0 && tocBox.left > column.getBoundingClientRect().left
        ? tocBox.left + parseFloat(getComputedStyle(toc as Element).paddingLeft)
        : window.innerWidth;
    const walk = (el: Element): void => {
      for (const child of Array.from(el.children)) {
        const box = child.getBoundingClientRect();
        if (box.width > 0 && box.right > right) sticking.push(`<${child.tagName.toLowerCase()}> ${(child.textContent ?? '').trim().slice(0, 60)} (right edge ${Math.round(box.right)} > ${Math.round(right)})`);
        const overflowX = getComputedStyle(child).overflowX;
        if (overflowX !== 'auto' && overflowX !== 'scroll' && overflowX !== 'hidden') walk(child);
      }
    };
    walk(column);
  }
  return { pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth, sticking: sticking.slice(0, 12) };
}
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

  it('documents every published package under packages/', () => {
    const onDisk = readdirSync(join(REPO_ROOT, 'packages'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(REPO_ROOT, 'packages', entry.name, 'package.json')))
      .filter((entry) => (JSON.parse(readFileSync(join(REPO_ROOT, 'packages', entry.name, 'package.json'), 'utf8')) as { private?: boolean }).private !== true)
      .map((entry) => `packages/${entry.name}`)
      .sort();
    expect(documentedPackages().map((p) => p.dir).sort()).toEqual(onDisk);
    for (const pkg of documentedPackages()) {
      expect(existsSync(join(outDir, modulePagePath(pkg.name))), `${pkg.name} has no page`).toBe(true);
    }
  });

  it('renders no raw link syntax: no `{@link`, no `@parl/core!Name` or `"@parl/core"!` text on any page', () => {
    const offenders: string[] = [];
    for (const file of htmlFiles(outDir)) {
      const text = visibleText(readFileSync(file, 'utf8'));
      const raw = /\{@link|"?@parl\/[a-z-]+"?!/.exec(text);
      if (raw !== null) offenders.push(`${relative(outDir, file)}: …${text.slice(Math.max(0, raw.index - 40), raw.index + 40)}…`);
    }
    expect(offenders).toEqual([]);
  });

  it('has no dead relative link on any page (the navigation links included, from every folder) and turns no file name in prose into a web address', () => {
    const dead: string[] = [];
    const fileNamesAsHosts: string[] = [];
    for (const file of htmlFiles(outDir)) {
      const html = readFileSync(file, 'utf8');
      for (const match of html.matchAll(/\shref="([^"#?]*)[^"]*"/g)) {
        const href = match[1] ?? '';
        if (/^https?:\/\/[\w-]+\.(md|ts|json|html)\/?$/i.test(href)) fileNamesAsHosts.push(`${relative(outDir, file)}: ${href}`);
        if (href === '' || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) continue;
        if (!existsSync(join(file, '..', decodeURIComponent(href)))) dead.push(`${relative(outDir, file)}: ${href}`);
      }
    }
    expect(fileNamesAsHosts).toEqual([]);
    expect(dead.slice(0, 20)).toEqual([]);
  });

  it('titles every guide with words (its first heading), not its file name', () => {
    const titles = readdirSync(join(outDir, 'documents'))
      .filter((f) => f.endsWith('.html'))
      .map((f) => /<title>([^<]*?)(?: \| [^<|]*)?<\/title>/.exec(readFileSync(join(outDir, 'documents', f), 'utf8'))?.[1] ?? f);
    const stems = siteGuides().map((path) => basename(path, '.md'));
    expect(titles.length).toBe(stems.length);
    expect(titles.filter((title) => stems.includes(title) || /^[a-z0-9-]+$/.test(title))).toEqual([]);
    expect(titles).toContain('The parl command');
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
    browser = await launchChromium(lookup.path as string);
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Open one page of the site; collect console errors, page errors and missing files. */
  async function open(path: string, viewport?: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage(viewport === undefined ? {} : { viewport });
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

  it('fits every guide into a 1280 px window: nothing runs under the sidebar, wide tables scroll in their own box', async () => {
    const pages = ['index.html', ...readdirSync(join(outDir, 'documents')).filter((f) => f.endsWith('.html')).map((f) => `documents/${f}`)];
    const report: Record<string, ReturnType<typeof overflowIn>> = {};
    for (const path of pages) {
      const { page, problems } = await open(path, { width: 1280, height: 800 });
      const found = await page.evaluate(overflowIn);
      if (found.pageScrollsSideways || found.sticking.length > 0) report[path] = found;
      expect(problems).toEqual([]);
      await page.close();
    }
    expect(report).toEqual({});
  });

  it('fits the API pages most at risk into a 1280 px window: every package page and the 24 exports with the longest names', async () => {
    const apiPages = ['functions', 'interfaces', 'classes', 'types', 'variables'].flatMap((dir) =>
      existsSync(join(outDir, dir)) ? readdirSync(join(outDir, dir)).map((f) => `${dir}/${f}`) : [],
    );
    const longest = apiPages.sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, 24);
    const report: Record<string, ReturnType<typeof overflowIn>> = {};
    for (const path of [...documentedPackages().map((pkg) => modulePagePath(pkg.name)), ...longest]) {
      const { page, problems } = await open(path, { width: 1280, height: 800 });
      const found = await page.evaluate(overflowIn);
      if (found.pageScrollsSideways || found.sticking.length > 0) report[path] = found;
      expect(problems).toEqual([]);
      await page.close();
    }
    expect(report).toEqual({});
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
