/**
 * The options of `parl swarm run` that shape its lines, as flag texts: what every rollout line
 * carries as `rollout_options`, so a rerun resumes only a run of the same configuration — and
 * compares only those (spec §10.1): a flag the run does not use never blocks a resume.
 *
 * @module
 */
import { optionRows } from '@parl/core';
import { SWARM_RUN_OPTIONS, type SwarmEvalOptions, type SwarmRunOptions } from '../options.js';
import { GENERATED_SUITE_DEFAULTS, SUITE_SETTINGS, type SuiteSettingName } from '../tasks/suites/suite-settings.js';
import { MCP_CREDENTIAL_KEYS } from '../tools/run-tool-options.js';
import type { RunOptionTexts } from './rollout-file.js';

/**
 * The options that do not shape a line: where the endpoint is, where the files and the queue are,
 * how long to wait on a request or a scorer, where rewards go, how many tools run at once, how
 * many tasks (task i is the same whatever the count: a larger `--tasks` extends a run), whether
 * to start over, and the MCP servers' credentials (headers, forwarded variables, the OAuth
 * client: never written to a file). Every other option — a new row of the table included — counts, so a
 * resume never mixes lines of two configurations.
 */
export const NON_SHAPING_OPTIONS: ReadonlySet<string> = new Set([
  'baseUrl', 'out', 'spans', 'queue', 'queueName', 'restart', 'requestTimeout', 'scorerTimeout', 'rewardUrl', 'toolConcurrency', 'tasks',
  ...MCP_CREDENTIAL_KEYS,
]);

/** The options that only shape a generated suite. */
const SUITE_ONLY: readonly string[] = ['suite', 'seed', 'entities', 'attributes', 'hops'];

/** The options of `options` that shape no line of this run: the non-shaping ones, and those it does not use (a suite's settings beside a task file, or another suite's). */
export function unusedOptions(options: SwarmRunOptions | SwarmEvalOptions): ReadonlySet<string> {
  const unused = new Set(NON_SHAPING_OPTIONS);
  if (options.tasksFile !== undefined) for (const key of SUITE_ONLY) unused.add(key);
  else {
    const suite = options.suite ?? GENERATED_SUITE_DEFAULTS.suite;
    for (const [key, setting] of Object.entries(SUITE_SETTINGS) as [SuiteSettingName, (typeof SUITE_SETTINGS)[SuiteSettingName]][]) if (!setting.suites.includes(suite)) unused.add(key);
  }
  return unused;
}

/** The flags (`hops`) a resume of this run does not compare, whatever an older line says of them. */
export function uncomparedFlags(options: SwarmRunOptions): ReadonlySet<string> {
  const unused = unusedOptions(options);
  return new Set([...optionRows(SWARM_RUN_OPTIONS)].filter(([key]) => unused.has(key)).map(([, row]) => row.flag));
}

/**
 * The flag texts of `options` that shape an episode's line (a switch that is off is left out; a
 * generated suite's name and seed as run, given or not). `parl swarm eval`'s options give the
 * texts of the rows it shares with `run` (what shapes its episodes): its evaluation keeps them to
 * resume only an evaluation of the same configuration.
 */
export function runOptionTexts(options: SwarmRunOptions | SwarmEvalOptions): RunOptionTexts {
  const unused = unusedOptions(options);
  const effective: Readonly<Record<string, unknown>> = options.tasksFile === undefined ? { suite: options.suite ?? GENERATED_SUITE_DEFAULTS.suite, seed: options.seed ?? GENERATED_SUITE_DEFAULTS.seed } : {};
  const texts: Record<string, string> = {};
  for (const [key, row] of optionRows(SWARM_RUN_OPTIONS)) {
    if (unused.has(key)) continue;
    const value: unknown = effective[key] ?? (options as Readonly<Record<string, unknown>>)[key];
    if (value === undefined || value === false) continue;
    texts[row.flag] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return texts;
}
