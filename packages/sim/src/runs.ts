/**
 * `@parl/sim/runs`: reading and checking spec §6 run folders without loading the simulator or
 * TensorFlow.js, for `parl report` and anything else that only reads runs.
 *
 * @packageDocumentation
 */
export {
  CONFIG_FILE,
  METRICS_FILE,
  POLICY_FOLDER,
  RUN_FOLDER_ENTRIES,
  RUN_FOLDER_FILES,
  SUMMARY_FILE,
} from './runs/run-folder-entries.js';
export {
  readRunFolder,
  RunFolderReadError,
  runFolderContentsOfFiles,
  type MetricsSink,
  type RunFolderContents,
} from './runs/read-run-folder.js';
export { completeRunSummary } from './runs/run-folder-complete.js';
