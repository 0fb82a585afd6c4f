/**
 * The house rules on imports (CONTRIBUTING.md, "The direction dependencies flow"), checked by
 * `pnpm deps:check` and by apps/docs/test/dependency-rules.test.ts in `pnpm test`:
 *
 *   @parl/core ──► @parl/gpu ──► @parl/sim ──► @parl/cli
 *   @parl/traces (core only) ─────────────────► @parl/cli
 *   @parl/core, @parl/traces ──► @parl/serve ──► @parl/cli   (no simulator, no TensorFlow.js)
 *
 * and inside @parl/sim: engine ◄ policies ◄ rollout ◄ evaluation ◄ training ◄ runs ◄ sweeps.
 *
 * A package is reached either as its workspace folder (packages/NAME/…, when the import
 * resolves) or by its bare name (@parl/NAME, when it is not built yet), so every rule names both.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const pkg = (names) => `^(packages/(${names})/|@parl/(${names})$)`;

/**
 * The rooms of @parl/sim (packages/sim/src/ROOM/), lowest first: a room imports only the rooms
 * below it, so the engine knows nothing of policies, a policy nothing of training, and so on.
 */
const SIM_ROOMS = ['engine', 'policies', 'rollout', 'evaluation', 'training', 'runs', 'sweeps'];

function simRoomRules() {
  return SIM_ROOMS.slice(0, -1).map((room, i) => ({
    name: `sim-${room}-imports-only-lower-rooms`,
    comment: `packages/sim/src/${room}/ builds on ${SIM_ROOMS.slice(0, i).join(', ') || 'nothing but names.ts'}; it never imports ${SIM_ROOMS.slice(i + 1).join(', ')}.`,
    severity: 'error',
    from: { path: `^packages/sim/src/${room}/` },
    to: { path: `^packages/sim/src/(${SIM_ROOMS.slice(i + 1).join('|')})/` },
  }));
}

module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-node-module',
      comment: '@parl/core is numbers in, numbers out: no node: module (fs, path, process …), so it runs anywhere.',
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-imports-no-tfjs',
      comment: '@parl/core knows nothing of TensorFlow.js; tensors belong to @parl/gpu.',
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: { path: '(^|/)@tensorflow/' },
    },
    {
      name: 'core-has-no-runtime-dependencies',
      comment: '@parl/core has no runtime dependencies and no other @parl package.',
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'core-depends-on-nothing',
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: { path: pkg('gpu|sim|traces|cli|serve') },
    },
    {
      name: 'gpu-depends-on-core-only',
      comment: '@parl/gpu sits right after core: it never reaches sim, traces or cli.',
      severity: 'error',
      from: { path: '^packages/gpu/src/' },
      to: { path: pkg('sim|traces|cli|serve') },
    },
    {
      name: 'sim-depends-on-core-and-gpu-only',
      severity: 'error',
      from: { path: '^packages/sim/src/' },
      to: { path: pkg('traces|cli|serve') },
    },
    ...simRoomRules(),
    {
      name: 'traces-depends-on-core-only',
      comment: '@parl/traces turns traces into records with core; it computes nothing with gpu or sim.',
      severity: 'error',
      from: { path: '^packages/traces/src/' },
      to: { path: pkg('gpu|sim|cli|serve') },
    },
    {
      name: 'serve-depends-on-core-and-traces-only',
      comment: '@parl/serve labels with core and assembles traces with traces; it never loads the simulator, gpu or TensorFlow.js (parl serve starts light).',
      severity: 'error',
      from: { path: '^packages/serve/src/' },
      to: { path: `${pkg('gpu|sim|cli')}|(^|/)@tensorflow/` },
    },
    {
      name: 'cli-holds-no-sweep-or-labelling-engine',
      comment: '@parl/cli is commands only: the sweep engine and its queue (BullMQ, ioredis) live in @parl/sim, the labelling threads (piscina) in @parl/io.',
      severity: 'error',
      from: { path: '^packages/cli/src/' },
      to: { path: '(^|/)node_modules/(bullmq|ioredis|piscina)/|^(bullmq|ioredis|piscina)$' },
    },
    {
      name: 'no-relative-import-into-another-package',
      comment: 'A package imports another by its name (@parl/core), never by a relative path into its folder.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/([^/]+)/src/', pathNot: '^packages/$1/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle between modules makes load order matter; break it with a smaller module.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^packages/[^/]+/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
