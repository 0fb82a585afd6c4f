import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'swarm',
    // generous: turbo runs every package's tests at once on CI's 2 cores
    testTimeout: 30_000,
    include: ['test/**/*.test.ts'],
  },
});
