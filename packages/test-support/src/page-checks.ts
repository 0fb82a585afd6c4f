/**
 * Checks a browser test makes on any page: no console error, no request leaving the page's own
 * origin, nothing cut off sideways.
 *
 * @module
 */
import type { Page } from 'playwright-core';

/**
 * The little of the browser's DOM the callback run in the page uses. Declared here rather than by
 * the `dom` lib, which would change `fetch`'s body types in every test that imports this file.
 */
interface PageBox {
  readonly right: number;
  readonly width: number;
}
interface PageElement {
  readonly tagName: string;
  readonly id: string;
  readonly className: unknown;
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getBoundingClientRect(): PageBox;
}
declare const document: { readonly documentElement: PageElement; readonly body: { querySelectorAll(selector: string): ArrayLike<PageElement> } };
declare const window: { readonly innerWidth: number };
declare function getComputedStyle(element: PageElement): { readonly overflowX: string };

/**
 * Collect, from now on, the page's console errors, uncaught exceptions and every request that
 * `allowed` refuses (by default: anything but `file:`, `data:` and `about:` URLs). The returned
 * list fills as the page runs; a test expects it to stay empty.
 */
export function watchPage(page: Page, allowed: (url: string) => boolean = (url) => /^(file|data|about):/.test(url)): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    if (!allowed(req.url())) problems.push(`request: ${req.url()}`);
  });
  return problems;
}

/**
 * The elements cut off sideways at the page's current viewport: the document wider than the
 * window, any element whose box reaches past the window's right edge, and any element that
 * clips or scrolls content wider than itself (an ellipsis counts). Each is named
 * `tag#id.class`; an empty list means nothing is cut off.
 */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) found.push(`document is ${doc.scrollWidth}px wide in a ${window.innerWidth}px window`);
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      const clips = style.overflowX !== 'visible';
      const name = `${el.tagName.toLowerCase()}${el.id === '' ? '' : `#${el.id}`}${typeof el.className === 'string' && el.className !== '' ? `.${el.className.trim().replace(/\s+/g, '.')}` : ''}`;
      if (box.width > 0 && box.right > window.innerWidth + 0.5) found.push(`${name} reaches ${Math.round(box.right)}px`);
      else if (clips && el.scrollWidth > el.clientWidth + 1) found.push(`${name} clips ${el.scrollWidth}px of content in ${el.clientWidth}px`);
    }
    return found;
  });
}
