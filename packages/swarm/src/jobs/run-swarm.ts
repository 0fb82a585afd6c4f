/**
 * `parl swarm run`: rollouts of a suite on an endpoint — here, or with `queue` on `parl worker`
 * processes — with the spans file when asked for.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { LanguageModel } from 'ai';
import type { SwarmRunOptions } from '../options.js';
import type { RolloutQueueEvent } from './queue-rollouts.js';
import { runRollouts, type RolloutLine } from '../rollouts/run-rollouts.js';
import { generateSuite } from '../tasks/suites.js';
import { endpointSettings } from './episode-settings.js';
import { openSpansFile } from './spans-file.js';

/** Hooks of a run. */
export interface SwarmRunHooks {
  /** After each sample. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Models by name instead of the endpoint (a local run only: workers build their own). */
  readonly models?: (name: string) => LanguageModel;
  /** With `queue`: told when Redis stops answering. */
  readonly onQueueEvent?: (event: RolloutQueueEvent) => void;
}

/**
 * Run `options.tasks` × `options.groupSize` episodes; the lines also go to `options.out`
 * (resumable) and the spans to `options.spans`. With `options.queue`, the episodes run on
 * `parl worker` processes and this process writes the same lines.
 *
 * @throws {@link @parl/core!ParlInputError} for `queueName` without `queue`
 */
export async function swarmRun(options: SwarmRunOptions, hooks: SwarmRunHooks = {}): Promise<RolloutLine[]> {
  if (options.queueName !== undefined && options.queue === undefined) throw new ParlInputError('--queue-name', options.queueName, 'given only with --queue');
  const tasks = generateSuite(options.suite, { tasks: options.tasks, seed: options.seed });
  const spans = options.spans === undefined ? undefined : await openSpansFile(options.spans);
  try {
    const rolloutOptions = {
      groupSize: options.groupSize,
      ...(options.out === undefined ? {} : { out: options.out }),
      onProgress: async (done: number, total: number) => {
        await spans?.flush();
        hooks.onProgress?.(done, total);
      },
    };
    let lines: RolloutLine[];
    if (options.queue === undefined) {
      lines = await runRollouts(tasks, endpointSettings({ ...options, tracer: spans?.tracer, models: hooks.models }), rolloutOptions);
    } else {
      const { runQueuedRollouts } = await import('./queue-rollouts.js');
      lines = await runQueuedRollouts(tasks, options, {
        ...rolloutOptions,
        url: options.queue,
        ...(options.queueName === undefined ? {} : { queueName: options.queueName }),
        ...(spans === undefined ? {} : { spans }),
        ...(hooks.onQueueEvent === undefined ? {} : { onQueueEvent: hooks.onQueueEvent }),
      });
    }
    await spans?.commit();
    return lines;
  } catch (err) {
    await spans?.discard();
    throw err;
  }
}
