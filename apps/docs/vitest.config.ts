import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'docs-site',
    include: ['test/**/*.test.ts'],
    // The site build and the packaging installs each keep the CPUs busy: one file at a time.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
