import type { Options } from 'tsup';

/**
 * The one tsup configuration every published @parl package builds with; a package's
 * `tsup.config.ts` passes only what differs (more entries, externals).
 *
 * Each package ships two builds of `src/index.ts`:
 *
 * - `dist/index.js` (ES module) with `dist/index.d.ts`, for `import`;
 * - `dist/index.cjs` (CommonJS) with `dist/index.d.cts`, for `require`.
 *
 * A CommonJS build rather than leaning on Node's `require(esm)`: `engines` says Node ≥ 20, and
 * `require(esm)` only works without a flag from Node 20.19; TypeScript under
 * `moduleResolution: node16` rejects an ES-module-only package imported from a CommonJS file
 * (TS1479) whatever Node does; and `@arethetypeswrong/cli` then passes without an ESM-only
 * profile. `shims` gives the CommonJS build the `import.meta.url` the sources use.
 */
export function parlTsupConfig(overrides: Options = {}): Options {
  return {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    shims: true,
    ...overrides,
  };
}
