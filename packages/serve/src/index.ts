/**
 * `@parl/serve`: PARL as a service (`parl serve`, spec §8). An OTLP/HTTP trace receiver whose
 * finished traces become episodes; PARL rewards over HTTP for RL trainers (`/v1/rewards`,
 * OpenRLHF's `/get_reward`, outcomes of traced episodes); a live dashboard; Prometheus metrics;
 * an append-only episode log replayed at start; and a small TypeScript client.
 *
 * @packageDocumentation
 */
export { createParlServer, type ParlServer } from './server.js';
export { DEFAULT_SERVE_LOG, SERVE_OPTIONS } from './options.js';
export { resolveServeOptions, type ResolvedServeOptions, type ServeOptions } from './resolve-options.js';
export type { OptionsOf, ResolvedOptionsOf, RowValue } from './option-types.js';
export { defaultLabelThreads } from './label-threads.js';
export { isLoopback } from './loopback.js';
export { FSYNC_POLICIES } from './episodes/fsync-policy.js';
export { ParlService, type EpisodeSource } from './service.js';
export type { OtlpReadSlices } from './threads/thread-tasks.js';
export type { FsyncPolicy } from './episodes/fsync-policy.js';
export type { LogStats } from './episodes/log-stats.js';
export type { EpisodeEntry, EvictedEntry, LogEntry, OtlpEntry, OutcomeEntry, RewardEntry, SpansEntry } from './episodes/log-entry.js';
export { otlpLogLine, rewardLogLine } from './episodes/log-entry.js';
export { EpisodeStore, type StoredEpisode } from './episodes/episode-store.js';
export { REWARD_QUERY_PARAMS, REWARD_QUERY_SCHEMA, rewardConfigOfQuery, type RewardQuery } from './reward-query.js';
export { EXTRA_LOG_FIELDS } from './labelling/get-reward-labels.js';
export { episodePoint, SERIES_SECONDS, SERIES_STEPS, STATS_FIELDS, type EpisodePoint, type SeriesPoint, type StatsField, type StatsSnapshot, type DashboardStats } from './dashboard/live-stats.js';
export { ServeMetrics, type MetricSources } from './metrics.js';
export { createRecordsLabeller, type RecordsLabeller } from './labelling/records-labeller.js';
export { ParlServeClient, ParlServeError, type ParlServeClientOptions, type GetRewardAnswer } from './client.js';
