import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'examples',
    include: ['test/**/*.test.ts'],
    // Each example is a child process; one at a time keeps a 2-core machine responsive.
    fileParallelism: false,
    testTimeout: 120_000,
  },
});
