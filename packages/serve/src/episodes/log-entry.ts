/**
 * The lines of the episode log (`t` tells which), each enough to rebuild what the server
 * acknowledged.
 *
 * @module
 */
import type { SerialCollapseFinding } from '@parl/traces';

/** A labelled record answered by `/v1/rewards` or `/get_reward` (records with an `id` only). */
export interface RewardEntry {
  /** Kind. */
  readonly t: 'reward';
  /** The record's `id`. */
  readonly id: string;
  /** The labelled record as answered. */
  readonly record: Readonly<Record<string, unknown>>;
}

/** Spans acknowledged by `/v1/traces`, as OTLP JSON spans, with their trace's rollout id when seen. */
export interface SpansEntry {
  /** Kind. */
  readonly t: 'spans';
  /** OTLP JSON spans (ids in hex). */
  readonly spans: readonly Record<string, unknown>[];
  /** Rollout ids by trace id, for the traces whose resource named one. */
  readonly rollouts?: Readonly<Record<string, string>>;
}

/** A trace that became an episode. */
export interface EpisodeEntry {
  /** Kind. */
  readonly t: 'episode';
  /** The trace id. */
  readonly trace: string;
  /** Its rollout id, when a span named one. */
  readonly rollout?: string;
  /** The spec §5 record (spec §7). */
  readonly record: Readonly<Record<string, unknown>>;
  /** The serial-collapse finding. */
  readonly finding: SerialCollapseFinding;
}

/** An outcome posted for a traced episode, with the labelled record answered. */
export interface OutcomeEntry {
  /** Kind. */
  readonly t: 'outcome';
  /** The trace id. */
  readonly trace: string;
  /** The labelled record as answered. */
  readonly labelled: Readonly<Record<string, unknown>>;
}

/** An unfinished trace evicted (timeout or capacity): its logged spans are not replayed. */
export interface EvictedEntry {
  /** Kind. */
  readonly t: 'evicted';
  /** The trace id. */
  readonly trace: string;
}

/** One line of the episode log. */
export type LogEntry = RewardEntry | SpansEntry | EpisodeEntry | OutcomeEntry | EvictedEntry;
