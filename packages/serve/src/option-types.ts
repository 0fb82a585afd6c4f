/**
 * The option types of a table, derived from its rows with a mapped type (vitest's
 * `CLIOptions<CliOptions>` is the model): the options object takes each row's parsed value, and
 * the resolved options hold it, never undefined for a row with a default. Kept here, small, until
 * `@parl/core` offers the same for every table.
 *
 * @module
 */
import type { OptionRow } from '@parl/core';

/** The value a row parses to. */
export type RowValue<R> = R extends OptionRow<infer V> ? V : never;

/** Options as a caller gives them: every key of the table, each optional. */
export type OptionsOf<T> = { readonly [K in keyof T]?: RowValue<T[K]> };

/** Options resolved: a row with a `default` always has a value; one without may be undefined. */
export type ResolvedOptionsOf<T> = { readonly [K in keyof T]: T[K] extends { readonly default: unknown } ? RowValue<T[K]> : RowValue<T[K]> | undefined };
