import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // tfjs stays external: one tfjs-core instance shared with dependents, and the optional
  // tfjs-node(-gpu) peers are only ever loaded at run time ...
  external: ['@tensorflow/tfjs-core', /^@tensorflow\/tfjs-(backend|node)/, /^@parl\//],
  // ... except tfjs-core's gradient configs, which its Node build lacks and Node cannot load
  // from its ES-module files: they are bundled (src/gradients.ts).
  noExternal: [/^@tensorflow\/tfjs-core\/dist\//],
});
