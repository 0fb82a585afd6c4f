/**
 * The option table of `parl serve`, read from `@parl/serve/options` (a small module: no Fastify),
 * so that `parl --help` shows the flags without loading the server.
 *
 * @module
 */
import type { OptionTable } from '@parl/core';
import type { ServeSettings } from '@parl/serve/options';
import { createRequire } from 'node:module';

let table: OptionTable<ServeSettings> | null | undefined;

/** `@parl/serve`'s `SERVE_OPTIONS` when `@parl/serve` is installed, else undefined (read once, synchronously). */
export function serveOptionTable(): OptionTable<ServeSettings> | undefined {
  if (table === undefined) {
    try {
      table = (createRequire(import.meta.url)('@parl/serve/options') as { SERVE_OPTIONS: OptionTable<ServeSettings> }).SERVE_OPTIONS;
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (code !== 'MODULE_NOT_FOUND' || !/['"]@parl\/serve['"/]/.test(String((err as Error).message))) throw err;
      table = null;
    }
  }
  return table ?? undefined;
}
