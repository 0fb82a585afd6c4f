/**
 * The episodes held in memory for `GET /v1/episodes/{id}`, `POST …/outcome` and `/get_reward`:
 * found by trace id (or record id) and by rollout id; at most `max`, the least recently written
 * dropped first (the episode log keeps them all).
 *
 * @module
 */
import type { SerialCollapseFinding } from '@parl/traces';

/** One episode as the server knows it. */
export interface StoredEpisode {
  /** The trace id, or the record's `id` for a record posted to `/v1/rewards`. */
  readonly id: string;
  /** The rollout id a span named (traced episodes only). */
  readonly rollout?: string;
  /** The spec §5 record: as traced (spec §7), or as posted. */
  readonly record: Readonly<Record<string, unknown>>;
  /** The serial-collapse finding (traced episodes only). */
  readonly finding?: SerialCollapseFinding;
  /** The last labelled record answered for it (after an outcome, or as posted to `/v1/rewards`). */
  readonly labelled?: Readonly<Record<string, unknown>>;
}

/** Episodes by id and rollout id, bounded. */
export class EpisodeStore {
  private readonly byId = new Map<string, StoredEpisode>();
  private readonly byRollout = new Map<string, string>();

  /** @param max - episodes held at most */
  constructor(private readonly max: number) {}

  /** Episodes held. */
  get size(): number {
    return this.byId.size;
  }

  /** Add or replace an episode (it becomes the most recent). */
  put(episode: StoredEpisode): void {
    this.byId.delete(episode.id);
    this.byId.set(episode.id, episode);
    if (episode.rollout !== undefined) this.byRollout.set(episode.rollout, episode.id);
    while (this.byId.size > this.max) {
      const oldest = this.byId.keys().next();
      if (oldest.done === true) break;
      const gone = this.byId.get(oldest.value);
      this.byId.delete(oldest.value);
      if (gone?.rollout !== undefined && this.byRollout.get(gone.rollout) === gone.id) this.byRollout.delete(gone.rollout);
    }
  }

  /** The episode whose trace id, record id or rollout id is `id`. */
  get(id: string): StoredEpisode | undefined {
    const direct = this.byId.get(id);
    if (direct !== undefined) return direct;
    const viaRollout = this.byRollout.get(id);
    return viaRollout === undefined ? undefined : this.byId.get(viaRollout);
  }
}
