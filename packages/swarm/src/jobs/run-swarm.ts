/**
 * `parl swarm run`: rollouts of a suite on an endpoint, with the spans file when asked for.
 *
 * @module
 */
import type { LanguageModel } from 'ai';
import type { SwarmRunOptions } from '../options.js';
import { runRollouts, type RolloutLine } from '../rollouts/run-rollouts.js';
import { generateSuite } from '../tasks/suites.js';
import { endpointSettings } from './episode-settings.js';
import { openSpansFile } from './spans-file.js';

/** Hooks of a run. */
export interface SwarmRunHooks {
  /** After each sample. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Models by name instead of the endpoint. */
  readonly models?: (name: string) => LanguageModel;
}

/** Run `options.tasks` × `options.groupSize` episodes; the lines also go to `options.out` (resumable) and the spans to `options.spans`. */
export async function swarmRun(options: SwarmRunOptions, hooks: SwarmRunHooks = {}): Promise<RolloutLine[]> {
  const tasks = generateSuite(options.suite, { tasks: options.tasks, seed: options.seed });
  const spans = options.spans === undefined ? undefined : await openSpansFile(options.spans);
  const settings = endpointSettings({ ...options, tracer: spans?.tracer, models: hooks.models });
  try {
    const lines = await runRollouts(tasks, settings, {
      groupSize: options.groupSize,
      ...(options.out === undefined ? {} : { out: options.out }),
      onProgress: async (done, total) => {
        await spans?.flush();
        hooks.onProgress?.(done, total);
      },
    });
    await spans?.commit();
    return lines;
  } catch (err) {
    await spans?.discard();
    throw err;
  }
}
