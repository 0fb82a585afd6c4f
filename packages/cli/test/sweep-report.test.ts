import { describe, expect, it } from 'vitest';
import { bestPoint, sweepPointRows } from '@parl/sim';
import { buildSweepReport } from '../src/internal/report/sweep-report.js';
import { THREE_POINTS, THREE_POINTS_INPUT } from './support/sweep-results.js';

describe('the sweep report', () => {
  it('summarises each point over its seeds with a verdict, and names the best parallel point', () => {
    const rows = sweepPointRows(THREE_POINTS);
    expect(rows.map((r) => r.summary.verdict)).toEqual(['collapsed', 'spurious', 'parallel']);
    expect(rows[2]?.summary.speedup).toMatchObject({ min: 4, max: 5, mean: 4.5 });
    expect(bestPoint(rows)?.point).toBe(2);
    expect(bestPoint(rows.slice(0, 2))).toBeUndefined();
    const html = buildSweepReport(THREE_POINTS_INPUT, sweepPointRows(THREE_POINTS), bestPoint(sweepPointRows(THREE_POINTS)));
    expect(html).toContain('Best parallel point: lambda1=linear:0.3:0:200 — speed-up 4.5× (4–5), r_perf 0.91 (0.905–0.915) against serial&#39;s 0.87, finish rate 0.975, parallel on 2/2 seeds.');
    expect(html).toContain('Points: 1 collapsed, 1 spurious, 1 parallel.');
    expect(html.match(/<tr data-point=/g)).toHaveLength(3);
    expect(html).toContain('data-verdict="spurious"');
    expect(html).not.toMatch(/<script[^>]+src=/);
  });

  it('says so when no point made PARL work', () => {
    const html = buildSweepReport(THREE_POINTS_INPUT, sweepPointRows(THREE_POINTS.slice(0, 4)), bestPoint(sweepPointRows(THREE_POINTS.slice(0, 4))));
    expect(html).toContain('No point made PARL work');
    expect(html).toContain('4 of 6 runs finished over 3 grid points');
  });
});
