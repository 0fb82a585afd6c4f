import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Settings that make a run take a fraction of a second: few tasks, two rollouts, a short evaluation. */
export const TINY_CONFIG = { tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } };

/** A grid file of 2 λ1 schedules × 2 seeds, `steps` training steps each; returns its path. */
export function writeTinyGrid(dir: string, steps = 3, name = 'grid.json'): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ preset: 'parl', steps, seeds: [1, 2], config: TINY_CONFIG, grid: { lambda1: ['linear:0.3:0:2', 'constant:0'] } }));
  return path;
}
