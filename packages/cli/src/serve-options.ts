/**
 * The option table of `parl serve`, `SERVE_OPTIONS` from `@parl/serve/options` (a small module:
 * no Fastify). `@parl/serve` is an optional peer, loaded with a dynamic import, and only when the
 * command line names `serve`: `parl --help` and `parl reward` never load it.
 *
 * @module
 */
import type { SERVE_OPTIONS } from '@parl/serve/options';

/** `@parl/serve`'s option table, as its type declares it. */
type ServeOptionTable = typeof SERVE_OPTIONS;

/** The line that tells a user how to add the server. */
export const INSTALL_SERVE_HINT = 'npm install @parl/serve (the HTTP server: Fastify and its plugins)';

let table: ServeOptionTable | null | undefined;

/** True for the error of importing `@parl/serve` when it is not installed. */
function isMissingServe(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && /['"]@parl\/serve['"/]/.test(String(e?.message));
}

/**
 * Load `@parl/serve`'s `SERVE_OPTIONS` (once); undefined when `@parl/serve` is not installed.
 * Afterwards {@link serveOptionTable} returns it.
 */
export async function loadServeOptionTable(): Promise<ServeOptionTable | undefined> {
  if (table === undefined) {
    try {
      table = (await import('@parl/serve/options')).SERVE_OPTIONS;
    } catch (err) {
      if (!isMissingServe(err)) throw err;
      table = null;
    }
  }
  return table ?? undefined;
}

/** The table {@link loadServeOptionTable} loaded, or undefined when it has not (or `@parl/serve` is missing). */
export function serveOptionTable(): ServeOptionTable | undefined {
  return table ?? undefined;
}
