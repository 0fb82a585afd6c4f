import { defineProject } from 'vitest/config';

/** `pnpm bench`: measurements that print figures, never assertions on speed. */
export default defineProject({
  test: {
    name: 'test-support-bench',
    testTimeout: 300_000,
    include: ['bench/**/*.bench-run.ts'],
  },
});
