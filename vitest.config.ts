import { defineConfig } from 'vitest/config';

/** Root vitest config: one project per package, so `vitest` at the root runs them all. */
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'examples'],
  },
});
