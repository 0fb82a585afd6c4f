import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'test-support',
    // generous: turbo runs every package's tests at once on CI's 2 cores
    testTimeout: 60_000,
    hookTimeout: 60_000,
    include: ['test/**/*.test.ts'],
  },
});
