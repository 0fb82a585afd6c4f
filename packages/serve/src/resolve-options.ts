/**
 * The options of a {@link createParlServer} call, typed from the option table (`SERVE_OPTIONS`) and
 * checked by its rows: each value given goes through its row's parser, defaults fill the rest.
 *
 * @module
 */
import { optionRows, ParlInputError, type OptionRow } from '@parl/core';
import { isLoopback } from './loopback.js';
import type { OptionsOf, ResolvedOptionsOf } from './option-types.js';
import { SERVE_OPTIONS } from './options.js';

/** How a server is set up: every option of `SERVE_OPTIONS` (each optional), and where warnings go. */
export type ServeOptions = OptionsOf<typeof SERVE_OPTIONS> & {
  /** Called with warnings (unmappable traces, evictions); default: ignored. */
  readonly onWarning?: (message: string) => void;
};

/** {@link ServeOptions} with every default filled in. */
export type ResolvedServeOptions = ResolvedOptionsOf<typeof SERVE_OPTIONS> & {
  /** Always a value once resolved: the request timeout when shorter than 10 s. */
  readonly headersTimeoutMs: number;
  /** Called with warnings. */
  readonly onWarning: (message: string) => void;
};

/** The headers timeout when none is given: 10 s, or the request timeout when that is shorter. */
const HEADERS_TIMEOUT_MS = 10_000;

/** A value of a library call read by its row: a switch as a boolean, anything else through the row's parser. */
function valueOf(row: OptionRow<unknown>, given: unknown, field: string): unknown {
  if (row.arg === undefined) {
    if (typeof given !== 'boolean') throw new ParlInputError(field, given, 'true or false');
    return given;
  }
  if (typeof given === 'number') {
    if (!Number.isFinite(given)) throw new ParlInputError(field, given, 'a finite number');
    return row.parse(String(given), field);
  }
  if (typeof given === 'string') return row.parse(given, field);
  throw new ParlInputError(field, given, row.choices === undefined ? 'a number or a text' : `one of ${row.choices.join(', ')}`);
}

/**
 * Fill in the defaults and check every option by its row of `SERVE_OPTIONS`; a library call
 * keeps no episode log unless given `logFile` (and none with `noLog`).
 *
 * @throws {@link @parl/core!ParlInputError} for a bad value (`options.port must be a decimal integer
 *   from 0 to 65535, got "70000"`), or a non-loopback `host` without a `token`
 *
 * @example
 * ```ts
 * resolveServeOptions({ port: 0 }).maxOpenSpans; // 100000
 * ```
 */
export function resolveServeOptions(options: ServeOptions = {}): ResolvedServeOptions {
  const given = options as Readonly<Record<string, unknown>>;
  const resolved: Record<string, unknown> = {};
  for (const [key, row] of optionRows(SERVE_OPTIONS)) {
    const value = given[key];
    if (value === undefined) {
      if (row.default !== undefined) resolved[key] = row.default;
    } else {
      resolved[key] = valueOf(row, value, `options.${key}`);
    }
  }
  if (resolved['token'] === '') delete resolved['token'];
  if (resolved['noLog'] === true) delete resolved['logFile'];
  const host = resolved['host'] as string;
  if (resolved['token'] === undefined && !isLoopback(host)) {
    throw new ParlInputError('options.token', undefined, `a bearer token: host ${host} is reachable from other machines (set --token or PARL_SERVE_TOKEN, or listen on 127.0.0.1)`);
  }
  const requestTimeoutMs = resolved['requestTimeoutMs'] as number;
  resolved['headersTimeoutMs'] ??= Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  if ((resolved['headersTimeoutMs'] as number) > requestTimeoutMs) {
    throw new ParlInputError('options.headersTimeoutMs', resolved['headersTimeoutMs'], `at most requestTimeoutMs (${requestTimeoutMs})`);
  }
  resolved['onWarning'] = options.onWarning ?? ((): void => {});
  return resolved as ResolvedServeOptions;
}
