import type { SweepResult } from '@parl/sim';

/** A finished run with the given numbers (serial takes 80 critical steps at r_perf 0.87). */
function result(point: number, seed: number, lambda1: string, width: number, finish: number, criticalSteps: number, rPerf: number): SweepResult {
  return {
    run_id: `${point}-${seed}`,
    point,
    params: { lambda1 },
    seed,
    final_r_perf: rPerf,
    final_critical_steps: criticalSteps,
    final_mean_width: width,
    final_finish_rate: finish,
    serial_r_perf: 0.87,
    serial_critical_steps: 80,
    speedup: 80 / criticalSteps,
    wall_s: 1,
  };
}

/** Three points: serial collapse (λ1 = 0), spurious (λ1 = 2), parallel (annealed), two seeds each. */
export const THREE_POINTS: SweepResult[] = [
  result(0, 1, 'constant:0', 0, 1, 80, 0.87),
  result(0, 2, 'constant:0', 0, 1, 80, 0.86),
  result(1, 1, 'constant:2', 100, 0.15, 16, 0.91),
  result(1, 2, 'constant:2', 100, 0.16, 16.2, 0.9),
  result(2, 1, 'linear:0.3:0:200', 15.5, 0.98, 16, 0.915),
  result(2, 2, 'linear:0.3:0:200', 15.2, 0.97, 20, 0.905),
];

export const THREE_POINTS_INPUT = { parameters: ['lambda1'], points: [{ lambda1: 'constant:0' }, { lambda1: 'constant:2' }, { lambda1: 'linear:0.3:0:200' }], plannedRuns: 6, preset: 'parl', steps: 300 };
