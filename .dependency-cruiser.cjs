/**
 * The house rules on imports (CONTRIBUTING.md, "The direction dependencies flow", and
 * ../shared/design/ARCHITECTURE.md), checked by `pnpm deps:check` and by
 * apps/docs/test/house-rules.test.ts in `pnpm test`:
 *
 *   @parl/core ──► @parl/gpu ──► @parl/sim ───────────────────► @parl/cli
 *   @parl/core ──► @parl/io ──► @parl/serve ──────────────────► @parl/cli
 *   @parl/core ──► @parl/traces ──► @parl/serve, @parl/swarm ─► @parl/cli
 *   @parl/core, @parl/io, @parl/traces ──► @parl/swarm
 *
 * io, traces, swarm and serve never load the simulator or TensorFlow.js; the cli loads sim, serve
 * and swarm only lazily (a dynamic import or a type-only import), so `parl reward` starts light
 * and the cli installs without them. Inside @parl/sim: engine ◄ policies ◄ rollout ◄ evaluation
 * ◄ training ◄ runs ◄ sweeps; inside @parl/swarm: tasks, scoring, telemetry ◄ tools, tokens ◄ runtime ◄
 * rollouts ◄ jobs; inside cli and serve, a command (a route) never imports another
 * command (route).
 *
 * A package is reached either as its workspace folder (packages/NAME/…, when the import
 * resolves) or by its bare name (@parl/NAME, when it is not built yet), so every rule names both.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const pkg = (names) => `^(packages/(${names})/|@parl/(${names})$)`;

/**
 * The rooms of @parl/sim (packages/sim/src/ROOM/, and their internals under
 * packages/sim/src/internal/ROOM/), lowest first: a room imports only the rooms below it, so the
 * engine knows nothing of policies, a policy nothing of training, and so on.
 */
const SIM_ROOMS = ['engine', 'policies', 'rollout', 'evaluation', 'training', 'runs', 'sweeps'];

function simRoomRules() {
  return SIM_ROOMS.slice(0, -1).map((room, i) => ({
    name: `sim-${room}-imports-only-lower-rooms`,
    comment: `packages/sim/src/${room}/ builds on ${SIM_ROOMS.slice(0, i).join(', ') || 'nothing but names.ts'}; it never imports ${SIM_ROOMS.slice(i + 1).join(', ')}.`,
    severity: 'error',
    from: { path: `^packages/sim/src/(internal/)?${room}/` },
    to: { path: `^packages/sim/src/(internal/)?(${SIM_ROOMS.slice(i + 1).join('|')})/` },
  }));
}

/**
 * The rooms of @parl/swarm (packages/swarm/src/ROOM/), lowest first; rooms on one level know
 * nothing of the levels above: a task, a scorer or a span never knows how tools are run, the tool
 * executor never knows the orchestrator loop, the runtime never knows rollouts or commands.
 */
const SWARM_LEVELS = [['tasks', 'scoring', 'telemetry'], ['tools', 'tokens'], ['runtime'], ['rollouts'], ['jobs']];

function swarmRoomRules() {
  return SWARM_LEVELS.slice(0, -1).flatMap((rooms, i) => {
    const above = SWARM_LEVELS.slice(i + 1).flat();
    return rooms.map((room) => ({
      name: `swarm-${room}-imports-only-lower-rooms`,
      comment: `packages/swarm/src/${room}/ builds on ${SWARM_LEVELS.slice(0, i).flat().join(', ') || 'nothing but other packages'}; it never imports ${above.join(', ')}.`,
      severity: 'error',
      from: { path: `^packages/swarm/src/${room}/` },
      to: { path: `^packages/swarm/src/(${above.join('|')})/` },
    }));
  });
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
      to: { path: pkg('gpu|sim|traces|cli|serve|io|swarm') },
    },
    {
      name: 'gpu-depends-on-core-only',
      comment: '@parl/gpu sits right after core: it never reaches sim, traces or cli.',
      severity: 'error',
      from: { path: '^packages/gpu/src/' },
      to: { path: pkg('sim|traces|cli|serve|io|swarm') },
    },
    {
      name: 'sim-depends-on-core-and-gpu-only',
      severity: 'error',
      from: { path: '^packages/sim/src/' },
      to: { path: pkg('traces|cli|serve|swarm') },
    },
    ...simRoomRules(),
    ...['sim', 'serve', 'traces', 'io', 'cli'].map((name) => ({
      name: `${name}-index-never-reexports-internals`,
      comment: `@parl/${name}'s public entry exports only what code outside the package uses; what lives under src/internal/ is never re-exported (Effect's layout).`,
      severity: 'error',
      from: { path: `^packages/${name}/src/index\\.ts$` },
      to: { path: `^packages/${name}/src/internal/` },
    })),
    {
      name: 'traces-depends-on-core-only',
      comment: '@parl/traces turns traces into records with core; it computes nothing with gpu or sim.',
      severity: 'error',
      from: { path: '^packages/traces/src/' },
      to: { path: `${pkg('gpu|sim|cli|serve|io|swarm')}|(^|/)@tensorflow/` },
    },
    {
      name: 'io-depends-on-core-only',
      comment: '@parl/io moves records in and out of bytes and labels them with core; it never reaches traces, the simulator, TensorFlow.js or the HTTP server.',
      severity: 'error',
      from: { path: '^packages/io/src/' },
      to: { path: `${pkg('gpu|sim|traces|cli|serve|swarm')}|(^|/)@tensorflow/` },
    },
    {
      name: 'swarm-never-loads-the-simulator',
      comment: '@parl/swarm runs real models with core, io and traces; it never loads the simulator, gpu, TensorFlow.js, the server or the cli.',
      severity: 'error',
      from: { path: '^packages/swarm/src/' },
      to: { path: `${pkg('gpu|sim|cli|serve')}|(^|/)@tensorflow/` },
    },
    ...swarmRoomRules(),
    {
      name: 'cli-loads-sim-serve-swarm-lazily',
      comment: '@parl/cli depends on core and io; sim, serve, swarm and gpu are optional peers, imported only by the command modules that need them (which the program loads on demand) or with a dynamic import (type-only imports are erased).',
      severity: 'error',
      from: { path: '^packages/cli/src/', pathNot: '^packages/cli/src/internal/commands/' },
      to: { path: pkg('gpu|sim|serve|swarm'), dynamic: false, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'cli-loads-each-command-on-demand',
      comment: 'The program imports a command module only when that command runs (a dynamic import), so `parl reward` never loads what `parl train` needs.',
      severity: 'error',
      from: { path: '^packages/cli/src/(program|run-cli|index)[.]ts$' },
      to: { path: '^packages/cli/src/internal/commands/', dynamic: false, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'a-command-never-imports-another-command',
      comment: 'packages/cli/src/internal/commands/NAME*.ts is one command (with its own helper files named NAME-…, a plural command name sharing its singular); shared pieces live in a lower room, never in another command.',
      severity: 'error',
      from: { path: '^packages/cli/src/internal/commands/([a-z]+?)s?[.-]' },
      to: { path: '^packages/cli/src/internal/commands/', pathNot: '^packages/cli/src/internal/commands/$1' },
    },
    {
      name: 'a-route-never-imports-another-route',
      comment: 'packages/serve/src/routes/NAME*.ts is one route; shared pieces live beside the routes, never in another route.',
      severity: 'error',
      from: { path: '^packages/serve/src/routes/([a-z]+?)s?[.-]' },
      to: { path: '^packages/serve/src/routes/', pathNot: '^packages/serve/src/routes/$1' },
    },
    {
      name: 'serve-depends-on-core-io-and-traces-only',
      comment: '@parl/serve labels with io and assembles traces with traces; it never loads the simulator, gpu or TensorFlow.js (parl serve starts light).',
      severity: 'error',
      from: { path: '^packages/serve/src/' },
      to: { path: `${pkg('gpu|sim|cli|swarm')}|(^|/)@tensorflow/` },
    },
    {
      name: 'io-main-entry-loads-no-bullmq',
      comment: 'The job queue (BullMQ, ioredis) is @parl/io/queue (src/queue.ts and src/queue/): nothing else in @parl/io imports it, so the main entry (parl reward, parl serve) never loads BullMQ.',
      severity: 'error',
      from: { path: '^packages/io/src/', pathNot: '^packages/io/src/(queue[.]ts|queue/)' },
      to: { path: '(^|/)node_modules/(bullmq|ioredis)/|^(bullmq|ioredis)$|^packages/io/src/queue/(queue-runner|queue-worker|redis-connection)[.]ts$' },
    },
    {
      name: 'cli-holds-no-sweep-or-labelling-engine',
      comment: '@parl/cli is commands only: the job queue (BullMQ, ioredis) lives in @parl/io/queue, the sweep engine in @parl/sim, the labelling threads (piscina) in @parl/io.',
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
