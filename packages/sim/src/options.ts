/**
 * `@parl/sim/options`: the option tables of the simulator's commands, declared once (key, flag,
 * parser, default, help), from which `parl simulate` and `parl train` build their flags, help and
 * docs. A module of its own, with `@parl/core` and the names only: it loads without TensorFlow.js,
 * so `parl --help` can show the flags without loading the simulator.
 *
 * @packageDocumentation
 */
import {
  choiceOption,
  defineOptionTable,
  integerOptionIn,
  nonEmptyTextOption,
  positiveIntegerOption,
  switchOption,
  type OptionsOf,
} from '@parl/core';
import { QUEUE_NAME_ROW, QUEUE_URL_ROW } from '@parl/io';
import { PRESET_NAMES, SCRIPTED_POLICY_NAMES, TASK_FAMILIES, type TaskFamily } from './names.js';

/** The preset `parl train` uses when `--preset` is not given. */
export const DEFAULT_PRESET = 'parl';

/** The policy `parl simulate` runs when `--policy` is not given. */
export const DEFAULT_SIMULATE_POLICY = 'balanced';

/** The defaults of {@link SIMULATE_OPTIONS}, for callers of the command as a function. */
export const SIMULATE_DEFAULTS = { policy: DEFAULT_SIMULATE_POLICY, episodes: 100, seed: 1 } as const;




/** Seeds: any safe integer ≥ 0. */
const seedOption = integerOptionIn(0);

/**
 * `parl simulate`'s simulator options.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(SIMULATE_OPTIONS, { episodes: '20' }, 'flag').episodes; // 20
 * ```
 */
export const SIMULATE_OPTIONS = defineOptionTable({
  policy: {
    flag: 'policy',
    arg: 'name|dir',
    parse: nonEmptyTextOption,
    default: SIMULATE_DEFAULTS.policy,
    help: `a scripted policy (${SCRIPTED_POLICY_NAMES.join(', ')}) or the folder of a trained one: a run folder or its policy/`,
  },
  family: {
    flag: 'family',
    arg: 'family',
    choices: TASK_FAMILIES,
    parse: choiceOption(TASK_FAMILIES),
    defaultText: "--env's, else wide",
    help: 'task family',
  },
  episodes: { flag: 'episodes', arg: 'n', parse: positiveIntegerOption, default: SIMULATE_DEFAULTS.episodes, help: 'episodes to run, each on its own task' },
  seed: { flag: 'seed', arg: 's', parse: seedOption, default: SIMULATE_DEFAULTS.seed, help: 'seed of the tasks and episodes; the same seed gives the same records' },
  sample: { flag: 'sample', parse: switchOption, help: 'a trained policy samples its actions instead of taking the most likely one' },
  env: { flag: 'env', arg: 'file', parse: nonEmptyTextOption, help: 'JSON file of environment settings over the defaults' },
});

/**
 * `parl train`'s training options.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(TRAIN_OPTIONS, {}, 'flag').preset; // 'parl'
 * ```
 */
export const TRAIN_OPTIONS = defineOptionTable({
  preset: {
    flag: 'preset',
    arg: 'name',
    parse: nonEmptyTextOption,
    default: DEFAULT_PRESET,
    help: `training preset: ${PRESET_NAMES.join(', ')}`,
  },
  steps: { flag: 'steps', arg: 'n', parse: positiveIntegerOption, defaultText: "the preset's", help: 'training steps' },
  seed: { flag: 'seed', arg: 's', parse: seedOption, defaultText: "the preset's", help: 'seed of the run; the same seed gives the same metrics' },
  config: { flag: 'config', arg: 'file', parse: nonEmptyTextOption, help: 'JSON file of training settings over the preset (--steps and --seed override it)' },
});

/**
 * `parl sweep`'s options (the queue's rows are `@parl/io`'s, shared with `parl worker`).
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(SWEEP_OPTIONS, { grid: 'grid.json' }, 'flag').grid; // "grid.json"
 * ```
 */
export const SWEEP_OPTIONS = defineOptionTable({
  grid: {
    flag: 'grid',
    arg: 'file',
    parse: nonEmptyTextOption,
    required: true,
    help: 'the grid file: {"preset", "steps", "seeds", "config", "grid": {PATH: [values]}, "samples", "ranges"} (spec §9)',
  },
  threads: { flag: 'threads', arg: 'n', parse: positiveIntegerOption, defaultText: 'one per core', help: 'local worker threads, one run each at a time' },
  queue: {
    ...QUEUE_URL_ROW,
    help: 'put the runs on a BullMQ queue in Redis (redis://HOST[:PORT][/DB]) for parl worker processes instead of training here; results come back through the queue',
  },
  queueName: { ...QUEUE_NAME_ROW, help: "the queue's name in Redis (with --queue; parl worker --queue-name must match)" },
});

/** The simulator's settings of `parl simulate` (derived from {@link SIMULATE_OPTIONS}; the command adds its output flags). */
export type SimulateSettings = OptionsOf<typeof SIMULATE_OPTIONS>;

/** The training settings of `parl train` (derived from {@link TRAIN_OPTIONS}; the command adds `--out`, `--force`, `--quiet`, `--json`). */
export type TrainSettings = OptionsOf<typeof TRAIN_OPTIONS>;

/** The settings of `parl sweep` (derived from {@link SWEEP_OPTIONS}: the grid file required; the command adds `--out`, `--quiet`, `--json`). */
export type SweepSettings = OptionsOf<typeof SWEEP_OPTIONS>;
