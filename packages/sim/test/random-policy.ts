import { MODE_DIRECT, MODE_LAUNCH, type ActionBatch, type Policy, type SwarmBatch } from '../src/index.js';
import { nextUniform } from '../src/internal/engine/rng.js';

/** A test policy that draws clumsy random actions from each episode's own stream. */
export const randomPolicy: Policy = {
  kind: 'scripted',
  name: 'random',
  act(env: SwarmBatch, list: Int32Array, length: number, _greedy: boolean, out: ActionBatch): void {
    for (let r = 0; r < length; r++) {
      const b = list[r] as number;
      const launch = nextUniform(env.rng, b) < 0.5;
      out.mode[r] = launch ? MODE_LAUNCH : MODE_DIRECT;
      if (launch) {
        out.width[r] = 1 + Math.floor(nextUniform(env.rng, b) * 40);
        out.handout[r] = 1 + Math.floor(nextUniform(env.rng, b) * (env.readyCount[b] as number));
      }
    }
  },
};
