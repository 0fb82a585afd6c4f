// @ts-check
import { Converter } from 'typedoc';

/**
 * A guide's title in the site is its first `# heading`, with inline code marks removed, instead
 * of the file name typedoc falls back to when a guide has no front-matter `title` ("gpu", "cli",
 * …). The guides stay plain markdown that GitHub renders the same way (docs/spec.md is kept
 * byte-equal to the shared contract, so it cannot carry front matter). A guide without a heading
 * keeps typedoc's title.
 *
 * @param {import('typedoc').Application} app
 */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DOCUMENT, (_context, /** @type {import('typedoc').DocumentReflection} */ doc) => {
    // prose and inline code only: a `# comment` inside a fenced code block is not a heading
    const text = doc.content
      .filter((part) => part.kind === 'text' || (part.kind === 'code' && !part.text.startsWith('```')))
      .map((part) => part.text)
      .join('');
    const heading = /^#[ \t]+(.+?)[ \t]*#*[ \t]*$/m.exec(text);
    if (heading?.[1] !== undefined) doc.name = heading[1].replace(/`/g, '').trim();
  });
}
