/**
 * The settings of the built-in suites (spec §10), declared once: each one's default, the suites
 * it shapes and its help. The option tables of `parl swarm run` / `eval` make a flag of each
 * (`--entities`, `--attributes`, `--hops`); the suites read them. Core only, so that help loads
 * nothing else.
 *
 * @module
 */

/** A suite setting's name. */
export type SuiteSettingName = 'entities' | 'attributes' | 'hops';

/** One setting. */
export interface SuiteSetting {
  /** The default. */
  readonly default: number;
  /** The suites it shapes. */
  readonly suites: readonly string[];
  /** What it is, for help and the docs. */
  readonly help: string;
}

/** The settings of the built-in suites. */
export const SUITE_SETTINGS: Readonly<Record<SuiteSettingName, SuiteSetting>> = {
  entities: { default: 6, suites: ['wide', 'mixed'], help: 'entities per table (rows) of the wide suite\'s tasks' },
  attributes: { default: 3, suites: ['wide', 'mixed'], help: 'attributes per entity (columns) of the wide suite\'s tasks, at most 6' },
  hops: { default: 4, suites: ['deep', 'mixed'], help: 'successor hops per task of the deep suite' },
};

/**
 * The suite, count and seed a run generates when none is given. Declared here, not as the option
 * rows' defaults, so that a run can tell "not given" from the default: beside a task file
 * `--suite` and `--seed` are refused and `--tasks N` takes the file's first N rows (spec §10.1).
 */
export const GENERATED_SUITE_DEFAULTS = { suite: 'wide', tasks: 10, seed: 1 } as const;

/** The most attributes a wide task can ask for (the corpus has six). */
export const MAX_ATTRIBUTES = 6;
