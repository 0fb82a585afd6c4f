/**
 * The optional packages: `@parl/sim` (the simulator and TensorFlow.js, about 65 MB),
 * `@parl/serve` (the HTTP service and Fastify) and `@parl/traces` (the trace readers) are
 * optional peers of `@parl/cli`, needed only by the commands that use them. This module finds out whether one is installed without loading it,
 * and turns its absence into one clear line: `parl train needs @parl/sim, which is not installed:
 * npm install @parl/sim (…)`.
 *
 * @module
 */
import { createRequire } from 'node:module';
import type * as SimOptionsModule from '@parl/sim/options';
import { CliError } from './errors.js';

/** The packages `@parl/cli` loads only when a command needs them, with what each brings. */
export const OPTIONAL_PACKAGES = {
  '@parl/sim': 'the simulator; it brings TensorFlow.js, about 65 MB',
  '@parl/serve': 'the HTTP service; it brings Fastify',
  '@parl/traces': 'the trace readers: OpenTelemetry, LangSmith, Langfuse and more',
  '@parl/swarm': 'the swarm runtime; it brings the Vercel AI SDK',
} as const;

/** An optional package's name. */
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** The line that tells a user how to add an optional package. */
export function installHint(pkg: OptionalPackage): string {
  return `npm install ${pkg} (${OPTIONAL_PACKAGES[pkg]})`;
}

/** The line that tells a user how to add the simulator. */
export const INSTALL_SIMULATOR_HINT = installHint('@parl/sim');

/** `@parl/sim/options`: the option tables of `parl simulate` and `parl train`. */
export type SimulatorOptionTables = typeof SimOptionsModule;

let simulatorTables: SimulatorOptionTables | null | undefined;

/** The simulator's option tables when `@parl/sim` is installed, else undefined (read once, synchronously, without TensorFlow.js). */
export function simulatorOptionTables(): SimulatorOptionTables | undefined {
  if (simulatorTables === undefined) {
    try {
      simulatorTables = createRequire(import.meta.url)('@parl/sim/options') as SimulatorOptionTables;
    } catch (err) {
      if (!isMissing(err, '@parl/sim')) throw err;
      simulatorTables = null;
    }
  }
  return simulatorTables ?? undefined;
}

/** `@parl/traces`' option table of trace reading (`parl trace`'s flags). */
export type TraceOptionTable = (typeof import('@parl/traces'))['TRACE_OPTIONS'];

let traceTable: TraceOptionTable | null | undefined;

/** `@parl/traces`' `TRACE_OPTIONS` when `@parl/traces` is installed, else undefined (read once, synchronously). */
export function traceOptionTable(): TraceOptionTable | undefined {
  if (traceTable === undefined) {
    try {
      traceTable = (createRequire(import.meta.url)('@parl/traces') as { TRACE_OPTIONS: TraceOptionTable }).TRACE_OPTIONS;
    } catch (err) {
      if (!isMissing(err, '@parl/traces')) throw err;
      traceTable = null;
    }
  }
  return traceTable ?? undefined;
}

/** True for the error of importing a module that needs `pkg` when it is not installed. */
function isMissing(err: unknown, pkg: OptionalPackage): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const quoted = new RegExp(`['"]${pkg.replace('/', '\\/')}['"/]`);
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && quoted.test(String(e?.message));
}

/**
 * Load a command module that needs an optional package; when the package is missing, fail with
 * one line saying how to add it (exit code 1).
 *
 * @param pkg - the optional package (`@parl/sim`)
 * @param command - the command, for the message (`train`)
 * @param load - the dynamic import of the command's module
 * @throws {@link CliError} when `pkg` is not installed
 *
 * @example
 * ```ts
 * const { serveCommand } = await withOptionalPackage('@parl/serve', 'serve', () => import('./commands/serve.js'));
 * ```
 */
export async function withOptionalPackage<T>(pkg: OptionalPackage, command: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissing(err, pkg)) throw new CliError(`parl ${command} needs ${pkg}, which is not installed: ${installHint(pkg)}`, 1);
    throw err;
  }
}

/**
 * Load a command module that needs the simulator ({@link withOptionalPackage} for `@parl/sim`).
 *
 * @throws {@link CliError} when `@parl/sim` is not installed
 */
export function withSimulator<T>(command: string, load: () => Promise<T>): Promise<T> {
  return withOptionalPackage('@parl/sim', command, load);
}
