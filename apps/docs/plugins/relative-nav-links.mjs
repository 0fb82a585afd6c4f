// @ts-check
import { PageEvent } from 'typedoc';

/**
 * typedoc writes each `navigationLinks` entry's href verbatim on every page, so a site-relative
 * link such as `"Guides": "index.html"` is dead on every page below the top folder
 * (`documents/cli.html` would point at `documents/index.html`). This plugin rewrites those hrefs
 * relative to the page being written: `../index.html` one folder down, and so on. Absolute links
 * (`https://…`) are left alone.
 *
 * @param {import('typedoc').Application} app
 */
export function load(app) {
  app.renderer.on(PageEvent.END, (/** @type {PageEvent} */ page) => {
    if (page.contents === undefined) return;
    const depth = page.url.split('/').length - 1;
    if (depth === 0) return;
    const up = '../'.repeat(depth);
    /** @type {Record<string, string>} */
    const links = app.options.getValue('navigationLinks');
    let contents = page.contents;
    for (const [label, href] of Object.entries(links)) {
      if (/^[a-z][a-z0-9+.-]*:|^\//i.test(href)) continue;
      const escaped = href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const label_ = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      contents = contents.replace(new RegExp(`href="${escaped}"(?=[^>]*>\\s*(?:<[^>]+>\\s*)*${label_}\\s*<)`, 'g'), `href="${up}${href}"`);
    }
    page.contents = contents;
  });
}
