/**
 * The option tables of the docs, rendered from the option declarations (`REWARD_OPTIONS`,
 * `CRITICAL_STEPS_OPTIONS`, `TRACE_OPTIONS`, `SERVE_OPTIONS`) and the trace-format registry: each sits between
 * `<!-- options: NAME -->` and `<!-- /options: NAME -->` in its document. The repository's
 * `scripts/sync-docs-options.mjs` rewrites them; a test fails when one is stale.
 *
 * @module
 */
import { CRITICAL_STEPS_OPTIONS, optionsMarkdown, REWARD_OPTIONS, replaceBetweenMarkers } from '@parl/core';
import { loadOptional } from './optional-packages.js';

/** One generated table: the document (from the repository root), its marker name and its Markdown. */
export interface DocsOptionTable {
  /** The document, e.g. `docs/cli.md`. */
  readonly doc: string;
  /** The marker name: the table sits between `<!-- options: NAME -->` and `<!-- /options: NAME -->`. */
  readonly name: string;
  /** The table. */
  readonly markdown: string;
}

/** Every generated option table of the docs (the serve and swarm tables when those packages are installed). */
export async function docsOptionTables(): Promise<readonly DocsOptionTable[]> {
  // The optional peers' tables, read only when installed.
  const serve = loadOptional('@parl/serve')?.SERVE_OPTIONS;
  const swarm = loadOptional('@parl/swarm');
  const trace = loadOptional('@parl/traces')?.TRACE_OPTIONS;
  return [
    { doc: 'docs/cli.md', name: 'reward', markdown: optionsMarkdown(REWARD_OPTIONS, 'flag') },
    { doc: 'docs/cli.md', name: 'critical-steps', markdown: optionsMarkdown(CRITICAL_STEPS_OPTIONS, 'flag') },
    ...(trace === undefined ? [] : [{ doc: 'docs/cli.md', name: 'trace', markdown: optionsMarkdown(trace, 'flag') }]),
    ...(serve === undefined ? [] : [{ doc: 'docs/cli.md', name: 'serve', markdown: optionsMarkdown(serve, 'flag') }]),
    ...(serve === undefined ? [] : [{ doc: 'docs/serve.md', name: 'serve', markdown: optionsMarkdown(serve, 'flag') }]),
    { doc: 'docs/serve.md', name: 'reward-query', markdown: optionsMarkdown(REWARD_OPTIONS, 'query') },
    ...(trace === undefined
      ? []
      : [
          { doc: 'docs/traces.md', name: 'trace-library', markdown: optionsMarkdown(trace, 'key') },
          { doc: 'docs/traces.md', name: 'trace', markdown: optionsMarkdown(trace, 'flag') },
          // The format table needs the readers (their model-call shapes): the package itself, not its options entry.
          { doc: 'docs/traces.md', name: 'trace-formats', markdown: (await import('@parl/traces')).traceFormatsMarkdown() },
        ]),
    ...(swarm === undefined ? [] : [{ doc: 'docs/swarm.md', name: 'swarm-run', markdown: optionsMarkdown(swarm.SWARM_RUN_OPTIONS, 'flag') }]),
    ...(swarm === undefined ? [] : [{ doc: 'docs/swarm.md', name: 'swarm-eval', markdown: optionsMarkdown(swarm.SWARM_EVAL_OPTIONS, 'flag') }]),
  ];
}

/**
 * `text` (the document `doc`) with each of its generated tables rewritten.
 *
 * @throws Error naming the marker when `doc` lacks one of its tables' markers
 */
export async function withOptionTables(doc: string, text: string): Promise<string> {
  let out = text;
  for (const table of await docsOptionTables()) {
    if (table.doc !== doc) continue;
    const next = replaceBetweenMarkers(out, table.name, table.markdown);
    if (next === undefined) throw new Error(`${doc} has no <!-- options: ${table.name} --> … <!-- /options: ${table.name} --> markers`);
    out = next;
  }
  return out;
}
