/**
 * The in-memory episode store: posted records are held as their JSON text and read back as
 * records; the bound drops the least recently written first, whichever way an episode was held.
 */
import { labelReward, resolveRewardConfig } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { EpisodeStore } from '../src/episodes/episode-store.js';

describe('EpisodeStore', () => {
  it('reads a posted record back as { id, record, labelled }, parsed from its text', () => {
    const store = new EpisodeStore(10);
    const record = { id: 'a', r_perf: 0.5, stages: [{ main_steps: 1, sub_steps: [2, 3] }] };
    store.putPosted('a', JSON.stringify(record));
    expect(store.get('a')).toEqual({ id: 'a', record, labelled: record });
  });

  it('reads a record held as posted back labelled with the config it was posted with, as its labelled text reads', () => {
    const store = new EpisodeStore(10);
    const config = resolveRewardConfig({ step: 4000, budget: 3, onBudget: 'truncate' });
    const posted = { id: 'p', note: 'x', r_perf: 0.25, stages: [{ main_steps: 1, sub_steps: [2, 3] }, { main_steps: 1, sub_steps: [1] }] };
    store.putPosted('p', ` ${JSON.stringify(posted)}\t`, config);
    const labelled = JSON.parse(JSON.stringify(labelReward(posted, config))) as Record<string, unknown>;
    expect(store.get('p')).toEqual({ id: 'p', record: labelled, labelled });
    // A traced episode takes it as its labelled record.
    store.put({ id: 't', record: { num_subagents: 1 }, finding: { trace_id: 't' } as never });
    store.putPosted('t', JSON.stringify({ id: 't', r_perf: 1 }), config);
    expect(store.get('t')?.labelled).toEqual(JSON.parse(JSON.stringify(labelReward({ id: 't', r_perf: 1 }, config))));
    expect(store.get('t')?.record).toEqual({ num_subagents: 1 });
  });

  it('keeps at most max episodes, dropping the least recently written, posted or traced', () => {
    const store = new EpisodeStore(2);
    store.putPosted('a', '{"id":"a"}');
    store.put({ id: 't', rollout: 'r-1', record: { num_subagents: 2 } });
    store.putPosted('a', '{"id":"a","v":2}'); // rewritten: now the most recent
    store.putPosted('b', '{"id":"b"}');
    expect(store.size).toBe(2);
    expect(store.get('t')).toBeUndefined();
    expect(store.get('r-1')).toBeUndefined();
    expect(store.get('a')?.record).toEqual({ id: 'a', v: 2 });
    expect(store.get('b')?.labelled).toEqual({ id: 'b' });
  });

  it('forgets the old rollout id of a trace finished again under a new one (issue 24 item 11)', () => {
    const store = new EpisodeStore(10);
    store.put({ id: 't', rollout: 'r-old', record: { num_subagents: 1 } });
    store.put({ id: 't', rollout: 'r-new', record: { num_subagents: 2 } });
    expect(store.get('r-old')).toBeUndefined();
    expect(store.get('r-new')?.record).toEqual({ num_subagents: 2 });
    expect(store.rollouts).toBe(1);
    // Written again without a rollout id: the last one goes too.
    store.put({ id: 't', record: { num_subagents: 3 } });
    expect(store.get('r-new')).toBeUndefined();
    expect(store.rollouts).toBe(0);
    // A rollout id moved to another trace stays with that trace when the first is rewritten.
    store.put({ id: 'u', rollout: 'r-shared', record: {} });
    store.put({ id: 'v', rollout: 'r-shared', record: { v: 1 } });
    store.put({ id: 'u', rollout: 'r-other', record: {} });
    expect(store.get('r-shared')?.id).toBe('v');
  });
});
