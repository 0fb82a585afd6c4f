import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'docs-site',
    include: ['test/**/*.test.ts'],
    // The site build and the packaging installs each keep the CPUs busy: one file at a time.
    fileParallelism: false,
    testTimeout: 180_000,
    // The packaging hooks pack the packages and npm-install them from the registry: on CI's second
    // run (Node 24, whose npm starts cold) each took over 3 minutes on a loaded 2-core machine.
    hookTimeout: 600_000,
  },
});
