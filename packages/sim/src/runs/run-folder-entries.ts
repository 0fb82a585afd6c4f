/**
 * The one definition of a spec §6 run folder's entries: the files a complete run has and the
 * entries a run folder may hold (names only: this module loads nothing else). Writing
 * ({@link writeRunFolder}), reading ({@link readRunFolder}) and completeness
 * ({@link completeRunSummary}) all use these lists.
 *
 * @module
 */

/** The run's resolved training config. */
export const CONFIG_FILE = 'config.json';
/** One line per training step (spec §6). */
export const METRICS_FILE = 'metrics.jsonl';
/** The run's final numbers (spec §6). */
export const SUMMARY_FILE = 'summary.json';
/** The folder of the trained policy. */
export const POLICY_FOLDER = 'policy';
/** The trained policy's file in {@link POLICY_FOLDER} (the policies room's `POLICY_FILE`; a test checks they agree). */
export const POLICY_FOLDER_FILE = 'policy.json';

/** The files a run folder must hold to be complete: config, metrics, summary and the policy. */
export const RUN_FOLDER_FILES: readonly string[] = [CONFIG_FILE, METRICS_FILE, SUMMARY_FILE, `${POLICY_FOLDER}/${POLICY_FOLDER_FILE}`];

/**
 * The entries a run folder may hold: those of {@link RUN_FOLDER_FILES} and `report.html` (the
 * CLI's view of the run). A folder holding only these (and `config.json`) may be replaced.
 */
export const RUN_FOLDER_ENTRIES: readonly string[] = [CONFIG_FILE, METRICS_FILE, SUMMARY_FILE, POLICY_FOLDER, 'report.html'];
