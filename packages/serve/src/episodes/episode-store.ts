/**
 * The episodes held in memory for `GET /v1/episodes/{id}`, `POST …/outcome` and `/get_reward`:
 * found by trace id (or record id) and by rollout id; at most `max`, the least recently written
 * dropped first (the episode log keeps them all).
 *
 * @module
 */
import { labelReward, type ResolvedRewardConfig } from '@parl/core';
import type { SerialCollapseFinding } from '@parl/traces';
import { LRUCache } from 'lru-cache';

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

/**
 * A record posted to `/v1/rewards`, held as JSON text and parsed when asked for: a string is one
 * object the garbage collector never looks inside, where a record is dozens, and under sustained
 * load 100 000 held records made garbage collection the server's main cost. With `config`, the
 * text is the record as posted and it is labelled again with that config when asked for (the
 * posted text is about a third of the labelled one: the 15 computed fields are most of a small
 * record's labelled text); without, the text is the labelled record (replayed from the log).
 */
interface PostedJson {
  readonly id: string;
  readonly json: string;
  readonly config: ResolvedRewardConfig | undefined;
}

/**
 * Episodes by id and rollout id, bounded. The bound is kept by `lru-cache` (isaacs), which drops
 * the oldest entry in constant time; a `Map` walked from its first key, which this replaced,
 * slowed down as deleted entries piled up at its front (30 µs per write at 100 000 episodes).
 */
export class EpisodeStore {
  private readonly byId: LRUCache<string, StoredEpisode | PostedJson>;
  private readonly byRollout = new Map<string, string>();

  /** @param max - episodes held at most */
  constructor(max: number) {
    this.byId = new LRUCache<string, StoredEpisode | PostedJson>({
      max,
      dispose: (gone, id, reason) => {
        if (reason === 'evict' && 'rollout' in gone && gone.rollout !== undefined && this.byRollout.get(gone.rollout) === id) this.byRollout.delete(gone.rollout);
      },
    });
  }

  /** Episodes held. */
  get size(): number {
    return this.byId.size;
  }

  /** Rollout ids held (each names one held episode). */
  get rollouts(): number {
    return this.byRollout.size;
  }

  /**
   * Record a labelled record answered for `id` by its JSON text — or, with `config`, by the text
   * of the record as posted, which labelled with `config` gave the answer (held so, and labelled
   * again when read: the same record, in a third of the memory). A traced episode keeps its trace
   * record and finding and takes this as its `labelled`; anything else becomes a posted record,
   * held as the text and read back as `{ id, record, labelled }` with both the labelled record.
   */
  putPosted(id: string, json: string, config?: ResolvedRewardConfig): void {
    const held = this.held(id);
    if (held !== undefined && !('json' in held) && held.finding !== undefined) this.hold({ ...held, labelled: labelledOf({ id, json, config }) });
    else this.hold({ id, json, config });
  }

  /** Add or replace an episode (it becomes the most recently written; reads do not change that). */
  put(episode: StoredEpisode): void {
    this.hold(episode);
  }

  private hold(episode: StoredEpisode | PostedJson): void {
    // An episode written again under another rollout id (or none) takes its old rollout id with it:
    // that id must not resolve to the newer episode (a reward would land on the wrong one).
    const before = this.byId.peek(episode.id);
    const oldRollout = before !== undefined && 'rollout' in before ? before.rollout : undefined;
    const newRollout = 'rollout' in episode ? episode.rollout : undefined;
    if (oldRollout !== undefined && oldRollout !== newRollout && this.byRollout.get(oldRollout) === episode.id) this.byRollout.delete(oldRollout);
    this.byId.set(episode.id, episode);
    if ('rollout' in episode && episode.rollout !== undefined) this.byRollout.set(episode.rollout, episode.id);
  }

  /** The episode whose trace id, record id or rollout id is `id`. */
  get(id: string): StoredEpisode | undefined {
    const found = this.held(id);
    return found === undefined ? undefined : materialise(found);
  }

  private held(id: string): StoredEpisode | PostedJson | undefined {
    const direct = this.byId.peek(id);
    if (direct !== undefined) return direct;
    const viaRollout = this.byRollout.get(id);
    return viaRollout === undefined ? undefined : this.byId.peek(viaRollout);
  }
}

function materialise(held: StoredEpisode | PostedJson): StoredEpisode {
  if (!('json' in held)) return held;
  const record = labelledOf(held);
  return { id: held.id, record, labelled: record };
}

/** The labelled record a posted one stands for (labelled again with its config, when it has one). */
function labelledOf(held: PostedJson): Readonly<Record<string, unknown>> {
  const record = JSON.parse(held.json) as unknown;
  if (held.config === undefined) return record as Readonly<Record<string, unknown>>;
  return labelReward(record, held.config, `episode ${held.id}`) as unknown as Readonly<Record<string, unknown>>;
}
