import { defineConfig } from 'tsup';

// Two entries: the library (with types) and the `parl` bin. src/bin.ts starts with the node
// shebang, which esbuild keeps at the top of dist/bin.js (and tsup makes the file executable).
export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
