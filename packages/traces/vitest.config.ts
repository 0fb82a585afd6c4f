import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'traces',
    include: ['test/**/*.test.ts'],
  },
});
