import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Page } from 'playwright-core';

/** The origin the built site is served under inside the browser. */
export const SITE_ORIGIN = 'http://parl-docs.test';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Serve `root` to `page` under {@link SITE_ORIGIN} straight from disk (no server process), and
 * record every request that could not be answered: a missing file is a broken site.
 */
export async function serveSite(page: Page, root: string): Promise<{ readonly missing: string[] }> {
  const missing: string[] = [];
  const base = normalize(root) + sep;
  await page.route(`${SITE_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    const relative = decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'index.html';
    const file = normalize(join(base, relative));
    if (!file.startsWith(base)) {
      missing.push(url.pathname);
      await route.fulfill({ status: 403, body: 'outside the site' });
      return;
    }
    try {
      const body = await readFile(file);
      await route.fulfill({ status: 200, body, contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    } catch {
      missing.push(url.pathname);
      await route.fulfill({ status: 404, body: 'not found' });
    }
  });
  return { missing };
}
