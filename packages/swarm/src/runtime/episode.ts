/**
 * One episode of the Agent Swarm (spec §10): the entry point. The pieces live in their own
 * files: the prompts, the orchestrator's tools (a record keyed by name), the record, the
 * orchestrator loop, the sub-agent loop, the dispatch of a reply's calls, the sub-agent pool, and
 * (in ../tools/) the one tool-call executor and the tool providers.
 *
 * @module
 */
import type { SwarmTask } from '../tasks/task.js';
import { episodeSettingsOf, type EpisodeOptions } from './config.js';
import { EpisodeState } from './episode-state.js';
import { runOrchestrator } from './orchestrator-loop.js';
import type { EpisodeResult } from './swarm-record.js';

/**
 * Run one episode of `task`.
 *
 * @param task - the task (see the suites)
 * @param options - the orchestrator's model, and any setting to change from its default (see
 *   {@link EpisodeSettings} and {@link EPISODE_DEFAULTS}; the sub-agents' model defaults to the orchestrator's)
 * @param id - the record's `id` (default: the task id)
 * @returns the record, built live, the orchestrator's transcript and its final answer
 * @throws {@link SwarmProviderError} when the orchestrator's model fails after its retries;
 *   {@link SwarmScoreError} when the task's scorer throws or gives no r_perf in [0, 1]
 */
export function runEpisode(task: SwarmTask, options: EpisodeOptions, id: string = task.id): Promise<EpisodeResult> {
  return runOrchestrator(new EpisodeState(task, episodeSettingsOf(options)), task, id);
}
