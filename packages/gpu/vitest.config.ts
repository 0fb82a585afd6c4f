import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'gpu',
    // generous: turbo runs every package's tests at once on CI's 2 cores
    testTimeout: 30_000,
    include: ['test/**/*.test.ts'],
    // tfjs-core's gradient configs (src/gradients.ts) are ES modules with extensionless imports
    // that Node cannot load: let Vite transform them, as tsup bundles them for dist.
    server: { deps: { inline: [/@tensorflow\/tfjs-core\/dist\/(?!tf-core)/] } },
  },
});
