import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A hand-made run folder (spec §6) with smooth, plausible curves: λ falling linearly, r_perf
 * rising, width growing then settling. Only its shape matters to the report tests.
 */
export function writeRunFixture(dir: string, steps = 60): void {
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (let s = 0; s < steps; s++) {
    const t = s / (steps - 1);
    const lambda = 0.1 * (1 - t);
    const width = 1 + 7 * t * (1.2 - 0.4 * t);
    const r_parallel = Math.min(1, width / 10);
    const r_finish = 0.95 - 0.1 * t;
    const r_perf = 0.2 + 0.55 * t;
    lines.push(
      JSON.stringify({
        step: s,
        lambda1: lambda,
        lambda2: lambda,
        total_reward: lambda * r_parallel + lambda * r_finish + r_perf,
        r_parallel,
        r_finish,
        r_perf,
        critical_steps: 40 - 22 * t,
        mean_width: width,
        finish_rate: r_finish,
        success_rate: r_perf + 0.05,
      }),
    );
  }
  writeFileSync(join(dir, 'metrics.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ preset: 'parl', seed: 1, steps, env: { family: 'wide' } }, null, 2));
  writeFileSync(
    join(dir, 'summary.json'),
    JSON.stringify(
      {
        preset: 'parl',
        seed: 1,
        steps,
        final: { r_perf: 0.74, critical_steps: 17.5, mean_width: 6.2, finish_rate: 0.86, success_rate: 0.78 },
        baseline_serial: { r_perf: 0.52, critical_steps: 41 },
        latency_to_target: [
          { target: 0.3, policy: 8, serial: 14 },
          { target: 0.5, policy: 12, serial: 30 },
          { target: 0.7, policy: 20, serial: null },
          { target: 0.9, policy: null, serial: null },
        ],
      },
      null,
      2,
    ),
  );
}
