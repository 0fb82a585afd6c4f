/**
 * The optional packages and the one way to load them: `@parl/sim` (the simulator and
 * TensorFlow.js, about 65 MB), `@parl/serve` (the HTTP service and Fastify), `@parl/traces` (the
 * trace readers) and `@parl/swarm` (the swarm runtime and the AI SDK) are optional peers of
 * `@parl/cli`, needed only by the commands that use them.
 *
 * - {@link loadOptional} reads a package's small `./options` entry (its option tables, core only)
 *   synchronously, for a command's flags and help;
 * - {@link importOptional} loads a command's module, which brings the package itself.
 *
 * Both tell "not installed" (one line with the one install hint: `parl train needs @parl/sim,
 * which is not installed: npm install @parl/sim (…)`) from "installed but broken" (a dependency
 * of the package missing, a file damaged: said as such, never as not installed).
 *
 * @module
 */
import { createRequire } from 'node:module';
import type * as SimOptions from '@parl/sim/options';
import type * as ServeOptions from '@parl/serve/options';
import type * as SwarmOptions from '@parl/swarm/options';
import type * as TracesOptions from '@parl/traces/options';
import { ParlInputError, PARL_ERROR_CODES, type ParlErrorCode } from '@parl/core';
import { CliError } from './errors.js';

/** The packages `@parl/cli` loads only when a command needs them, with what each brings. */
export const OPTIONAL_PACKAGES = {
  '@parl/sim': 'the simulator; it brings TensorFlow.js, about 65 MB',
  '@parl/serve': 'the HTTP service; it brings Fastify',
  '@parl/traces': 'the agent trace readers: OpenTelemetry and other trace formats',
  '@parl/swarm': 'the swarm runtime; it brings the Vercel AI SDK',
} as const;

/** An optional package's name. */
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** The `./options` entry of each optional package: its option tables, with `@parl/core` only. */
export interface OptionalOptionsEntries {
  /** `@parl/sim/options`: `parl simulate`, `parl train` and `parl sweep`. */
  readonly '@parl/sim': typeof SimOptions;
  /** `@parl/serve/options`: `parl serve`. */
  readonly '@parl/serve': typeof ServeOptions;
  /** `@parl/traces/options`: `parl trace`. */
  readonly '@parl/traces': typeof TracesOptions;
  /** `@parl/swarm/options`: `parl swarm run` and `parl swarm eval`. */
  readonly '@parl/swarm': typeof SwarmOptions;
}

/** The line that tells a user how to add an optional package: the one wording every command uses. */
export function installHint(pkg: OptionalPackage): string {
  return `npm install ${pkg} (${OPTIONAL_PACKAGES[pkg]})`;
}

/** The error of a command whose optional package is not installed (exit code 1). */
export function notInstalled(pkg: OptionalPackage, command: string): CliError {
  return new CliError(`parl ${command} needs ${pkg}, which is not installed: ${installHint(pkg)}`, 1);
}

/**
 * True for the error of loading `pkg` (or one of its entries) when `pkg` itself is not installed;
 * false for anything else, a dependency of an installed `pkg` missing included.
 */
export function isMissing(err: unknown, pkg: OptionalPackage): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' && e?.code !== 'MODULE_NOT_FOUND') return false;
  // The first line names what was not found: `Cannot find module '@parl/sim/options'` (require),
  // `Cannot find package '@parl/sim' imported from …` (import). Later lines (a require stack) may
  // name the package's own files and must not count.
  const first = String(e.message).split('\n', 1)[0] ?? '';
  return new RegExp(`['"]${pkg.replace('/', '\\/')}['"/]`).test(first);
}

/** The error of an optional package that is installed but does not load (exit code 1). */
function brokenInstall(pkg: OptionalPackage, err: unknown): CliError {
  const message = err instanceof Error ? (err.message.split('\n', 1)[0] ?? '') : String(err);
  return new CliError(`${pkg} is installed but does not load (${message}); reinstall it: ${installHint(pkg)}`, 1);
}

const loaded = new Map<OptionalPackage, unknown>();

/**
 * The `./options` entry of an optional package (its option tables), read once, synchronously, so
 * that a command's flags and help can be built without the package itself; undefined when the
 * package is not installed.
 *
 * The entry is the package's CommonJS build, with the CommonJS build of `@parl/core`: an error
 * its parsers throw is normalised by {@link fromCommonJsBuild}.
 *
 * @throws {@link CliError} when the package is installed but its entry does not load
 *
 * @example
 * ```ts
 * const tables = loadOptional('@parl/sim');
 * if (tables !== undefined) addOptionFlags(cmd, tables.SWEEP_OPTIONS);
 * ```
 */
export function loadOptional<P extends OptionalPackage>(pkg: P): OptionalOptionsEntries[P] | undefined {
  if (!loaded.has(pkg)) {
    try {
      loaded.set(pkg, createRequire(import.meta.url)(`${pkg}/options`));
    } catch (err) {
      if (!isMissing(err, pkg)) throw brokenInstall(pkg, err);
      loaded.set(pkg, undefined);
    }
  }
  return loaded.get(pkg) as OptionalOptionsEntries[P] | undefined;
}

/**
 * Load a command module that needs an optional package; when the package is missing, fail with
 * one line saying how to add it (exit code 1), and when it is installed but broken, say that.
 *
 * @param pkg - the optional package (`@parl/sim`)
 * @param command - the command, for the message (`train`)
 * @param load - the dynamic import of the command's module
 * @throws {@link CliError} when `pkg` is not installed or does not load
 *
 * @example
 * ```ts
 * const { serveCommand } = await importOptional('@parl/serve', 'serve', () => import('./internal/commands/serve.js'));
 * ```
 */
export async function importOptional<T>(pkg: OptionalPackage, command: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissing(err, pkg)) throw notInstalled(pkg, command);
    if ((err as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND' || (err as { code?: unknown } | null)?.code === 'MODULE_NOT_FOUND') throw brokenInstall(pkg, err);
    throw err;
  }
}

/** The fields of core's `ParlInputError`, as an error of either build carries them. */
interface InputErrorFields {
  readonly field: string;
  readonly value: unknown;
  readonly expected: string;
  readonly location: string | undefined;
  readonly code: string | undefined;
}

/**
 * The fields of a `ParlInputError` thrown by the CommonJS build of `@parl/core` (which the
 * `./options` entries load): `instanceof` against the ES module build does not match it, so it is
 * recognised by name and fields. Undefined for any other error.
 */
export function commonJsInputError(err: unknown): InputErrorFields | undefined {
  if (!(err instanceof Error) || err.name !== 'ParlInputError') return undefined;
  const e = err as Error & Partial<Record<keyof InputErrorFields, unknown>>;
  if (typeof e.field !== 'string' || typeof e.expected !== 'string') return undefined;
  return {
    field: e.field,
    value: e.value,
    expected: e.expected,
    location: typeof e.location === 'string' ? e.location : undefined,
    code: typeof e.code === 'string' ? e.code : undefined,
  };
}

/**
 * `err` as the ES module build's error: a `ParlInputError` of the CommonJS build (thrown by a
 * parser of an optional package's `./options` entry) becomes the same error of `@parl/core`'s ES
 * module build, so that `instanceof` and the exit code treat both alike; any other value is
 * returned as it is. The one normaliser: `runCli` passes every error through it.
 *
 * @example
 * ```ts
 * const e = fromCommonJsBuild(err);
 * if (e instanceof ParlInputError) io.stderr.write(`${e.message}\n`);
 * ```
 */
export function fromCommonJsBuild(err: unknown): unknown {
  if (err instanceof ParlInputError) return err;
  const fields = commonJsInputError(err);
  if (fields === undefined) return err;
  const code = (PARL_ERROR_CODES as readonly string[]).includes(fields.code ?? '') ? (fields.code as ParlErrorCode) : undefined;
  return new ParlInputError(fields.field, fields.value, fields.expected, fields.location, code);
}
