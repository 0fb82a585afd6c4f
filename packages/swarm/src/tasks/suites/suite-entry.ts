/**
 * What a built-in suite is to the registry: a name, a description, the settings it reads, and
 * the task it generates at each place from its own seeded generator.
 *
 * @module
 */
import type { SeededRandom } from '../seeded-random.js';
import type { SwarmTask } from '../task.js';
import type { SuiteSettingName } from './suite-settings.js';

/** The resolved settings a suite's tasks are generated with. */
export type SuiteShape = Readonly<Record<SuiteSettingName, number>>;

/** One suite of the registry. */
export interface SuiteEntry {
  /** What its tasks are, for help and the docs. */
  readonly description: string;
  /** The settings it reads. */
  readonly settings: readonly SuiteSettingName[];
  /**
   * Task `index` of the suite.
   *
   * @param id - the task's id
   * @param index - its place (0-based)
   * @param rng - the task's own generator (task i is the same whatever the count)
   */
  task(id: string, index: number, rng: SeededRandom, shape: SuiteShape): SwarmTask;
}
