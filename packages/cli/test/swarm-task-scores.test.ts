/**
 * The per-task table of `parl swarm eval --report` when episodes failed (spec §10.2): a failed
 * episode is not in its mode's records, so the two modes' records are paired by task, never by
 * position, and the failed side says "not graded" instead of a score.
 */
import { describe, expect, it } from 'vitest';
import { taskScoresTable } from '../src/internal/report/swarm-task-scores.js';

const rowsOf = (html: string): string[][] =>
  (html.match(/<tr>.*?<\/tr>/g) ?? []).slice(1).map((row) => [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1] as string));

describe('taskScoresTable with failed episodes', () => {
  it('pairs each task\'s swarm and single-agent episodes by task id; a failed one is not graded, never 0', () => {
    // Tasks a, b, c: the swarm's episode of b failed, the single agent's of c.
    const swarm = [
      { task_id: 'a', r_perf: 1, score: { scorer: 'exact', r_perf: 1 } },
      { task_id: 'c', r_perf: 0.5, score: { scorer: 'exact', r_perf: 0.5 } },
    ];
    const single = [
      { task_id: 'a', r_perf: 0, score: { scorer: 'exact', r_perf: 0 } },
      { task_id: 'b', r_perf: 1, score: { scorer: 'exact', r_perf: 1 } },
    ];
    // Task d: both episodes failed.
    const rows = rowsOf(taskScoresTable(swarm, single, { swarm: ['A', 'C'], single_agent: ['a', 'b'] }, ['a', 'b', 'c', 'd']));
    expect(rows.map((r) => [r[0], r[2], r[3], r[4], r[5], r[9]])).toEqual([
      ['a', '1', '<pre>A</pre>', '0', '<pre>a</pre>', ''],
      ['b', '—', '—', '1', '<pre>b</pre>', 'swarm episode failed: not graded'],
      ['c', '0.5', '<pre>C</pre>', '—', '—', 'single-agent episode failed: not graded'],
      ['d', '—', '—', '—', '—', 'swarm episode failed: not graded; single-agent episode failed: not graded'],
    ]);
  });
});
