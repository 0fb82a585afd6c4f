import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // tfjs stays external: one tfjs-core instance shared with dependents, and the optional
  // tfjs-node(-gpu) peers are only ever loaded at run time.
  external: [/^@tensorflow\//, /^@parl\//],
});
