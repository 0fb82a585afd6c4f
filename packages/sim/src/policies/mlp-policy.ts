/**
 * The orchestrator's policy network: a small tfjs MLP over the state features with three heads —
 * mode (direct call or launch), the group size k as a count 1..maxCount (see `count-head.ts`), and
 * the share of ready subtasks to hand out (k below the number handed out groups several subtasks
 * on one sub-agent; k above it leaves sub-agents idle). Acting is batched: one forward pass per
 * decision step for every active episode.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { tf } from '@parl/gpu';
import { MODE_DIRECT, MODE_LAUNCH, type ActionBatch } from '../engine/actions.js';
import type { CountBasis } from './count-basis.js';
import { countLogits, countTables, decayWeights, habitWeight, type CountTables } from '../internal/policies/count-head.js';
import { MAX_SUBTASKS } from '../engine/env-config.js';
import { FEATURE_COUNT, FEATURE_NAMES, READY_SCALE } from '../internal/engine/features.js';
import { denseForward, denseRowOutputs, type DenseLayer } from '../internal/policies/mlp-forward.js';
import { denseLayer } from '../internal/policies/dense-layer.js';
import type { Policy } from './policy.js';
import { Rng, nextUniform } from '../internal/engine/rng.js';
import type { SwarmBatch } from '../engine/swarm-batch.js';

/** The shape of a policy network: hidden layers, the width head's basis and the share grid. */
export interface MlpSpec extends CountBasis {
  /** Hidden layer sizes (tanh). */
  readonly hidden: readonly number[];
  /** Shares of the ready subtasks the hand-out head chooses from; m = max(1, round(share × ready)). */
  readonly shareGrid: readonly number[];
}

/**
 * The default network: two hidden layers of 32; a width head over 1..100 sub-agents with bumps at
 * ¼, ½, 1, 2 and 4 times the ready subtasks and at 1, 2, 4, …, 64, 100 sub-agents (spread 0.3 in
 * ln-count); shares ¼, ½ or all of the ready subtasks.
 */
export const DEFAULT_MLP_SPEC: MlpSpec = {
  hidden: [32, 32],
  relativeCounts: [0.25, 0.5, 1, 2, 4],
  absoluteCounts: [1, 2, 4, 8, 16, 32, 64, 100],
  countSpread: 0.3,
  maxCount: 100,
  shareGrid: [0.25, 0.5, 1],
};

/**
 * What an untrained orchestrator does when it does launch: a model trained on single-agent work
 * hands the whole job to one helper. The width head starts choosing `width` sub-agents and the
 * share head `share`, each with probability `probability`.
 */
export interface InitialHabit {
  /** The favoured group size (a value of `absoluteCounts`). */
  readonly width: number;
  /** The favoured share of ready subtasks (a value of the share grid). */
  readonly share: number;
  /** Starting probability of the favoured width and of the favoured share. */
  readonly probability: number;
  /**
   * How fast the starting chance of the other group sizes falls with the count: a launch of k
   * sub-agents starts about k^−decay as likely (0: all other counts alike). Default 0 when
   * omitted; the training presets use 1.25.
   */
  readonly decay?: number;
}

/** A policy network's weights in plain JSON (the `policy/policy.json` file). */
export interface SavedMlpPolicy {
  /** Format marker, `parl-sim-mlp-policy`. */
  readonly format: 'parl-sim-mlp-policy';
  /** Format version, 2 (version 1 chose widths from a rule grid). */
  readonly version: 2;
  /** The feature names, in input order (checked on load). */
  readonly features: readonly string[];
  /** Network shape and grids. */
  readonly spec: MlpSpec;
  /** Weights per layer, `[in, out]` row-major, and biases `[out]`. */
  readonly layers: readonly { readonly weights: readonly number[]; readonly bias: readonly number[] }[];
}

/** The action indices of one recorded decision. */
export interface DecisionTrace {
  /** Feature rows, `[n, FEATURE_COUNT]`, appended per decision. */
  readonly features: number[];
  /** Mode index per decision (0 direct, 1 launch). */
  readonly mode: number[];
  /** Group size k − 1 per decision (0 for a direct call, unused). */
  readonly width: number[];
  /** Share-grid index per decision (0 for a direct call, unused). */
  readonly share: number[];
  /** The episode that took the decision (its slot, plus the batch's offset in a rollout). */
  readonly slot: number[];
}

/**
 * Constants of {@link MlpPolicy.logProb} for a batch ordered launches first (see
 * {@link MlpPolicy.actionTensors}).
 */
export interface ActionTensors {
  /** How many of the first rows are launches. */
  readonly launches: number;
  /** Chosen mode per row `[n, 2]`. */
  readonly mode: tf.Tensor2D;
  /** Chosen group size (column k − 1) per launch row `[L, maxCount]`. */
  readonly width: tf.Tensor2D;
  /** Chosen share per launch row `[L, shares]`. */
  readonly share: tf.Tensor2D;
  /** The launch rows' width basis `[L, maxCount, R + A]` ({@link MlpPolicy.widthBasis}). */
  readonly basis: tf.Tensor3D;
}

/** Free the tensors of an {@link ActionTensors}. */
export function disposeActionTensors(actions: ActionTensors): void {
  tf.dispose([actions.mode, actions.width, actions.share, actions.basis]);
}

/** An empty {@link DecisionTrace}. */
export function emptyDecisionTrace(): DecisionTrace {
  return { features: [], mode: [], width: [], share: [], slot: [] };
}

function sampleIndex(logits: Float32Array, offset: number, size: number, greedy: boolean, u: number): number {
  let max = -Infinity;
  let arg = 0;
  for (let j = 0; j < size; j++) {
    const v = logits[offset + j] as number;
    if (v > max) {
      max = v;
      arg = j;
    }
  }
  if (greedy) return arg;
  let total = 0;
  for (let j = 0; j < size; j++) total += Math.exp((logits[offset + j] as number) - max);
  let acc = 0;
  const target = u * total;
  for (let j = 0; j < size; j++) {
    acc += Math.exp((logits[offset + j] as number) - max);
    if (target < acc) return j;
  }
  return size - 1;
}

function specOf(spec: MlpSpec): MlpSpec {
  return {
    hidden: [...spec.hidden],
    relativeCounts: [...spec.relativeCounts],
    absoluteCounts: [...spec.absoluteCounts],
    countSpread: spec.countSpread,
    maxCount: spec.maxCount,
    shareGrid: [...spec.shareGrid],
  };
}

/** Network outputs of a spec: 2 mode logits, the width head's bump weights, the share logits. */
function outputSizeOf(spec: MlpSpec): number {
  return 2 + spec.relativeCounts.length + spec.absoluteCounts.length + spec.shareGrid.length;
}

/**
 * The trainable policy network.
 *
 * @example
 * ```ts
 * const policy = MlpPolicy.create(DEFAULT_MLP_SPEC, 0.9, 1); // 90% direct calls at first
 * const records = await simulate({ policy, episodes: 100, greedy: true });
 * policy.dispose();
 * ```
 */
export class MlpPolicy implements Policy {
  /** Always `mlp`. */
  readonly kind = 'mlp' as const;
  /** Always `mlp`. */
  readonly name = 'mlp';
  /** Network shape, width basis and share grid. */
  readonly spec: MlpSpec;
  /** Weights and biases, layer by layer: `[W0, b0, W1, b1, …]`. */
  readonly variables: tf.Variable[];
  private features: Float32Array = new Float32Array(0);
  private readonly tables: CountTables;
  private readonly countRow: Float32Array;
  private host: { layers: DenseLayer[]; dataIds: object[] } | null = null;
  private hostScratch: Float32Array[] = [];
  private outputs: Float32Array = new Float32Array(0);

  private constructor(spec: MlpSpec, variables: tf.Variable[]) {
    this.spec = spec;
    this.variables = variables;
    this.tables = countTables(spec);
    this.countRow = new Float32Array(spec.maxCount);
  }

  /** Number of network outputs: 2 mode logits, the width head's bump weights, the share logits. */
  get outputSize(): number {
    return outputSizeOf(this.spec);
  }

  /** Columns of an action one-hot row (see {@link MlpPolicy.logProb}): 2 modes, maxCount widths, the shares. */
  get actionSize(): number {
    return 2 + this.spec.maxCount + this.spec.shareGrid.length;
  }

  /**
   * A freshly initialised network (Glorot-uniform weights from `seed`) whose mode head starts
   * with direct calls at probability `directProbability`, like a model trained on single-agent
   * work; with a `habit`, the width and share heads start favouring its width and share.
   */
  static create(spec: MlpSpec, directProbability: number, seed: number, habit?: InitialHabit): MlpPolicy {
    const rng = new Rng(seed);
    const sizes = [FEATURE_COUNT, ...spec.hidden, outputSizeOf(spec)];
    const layers: { weights: number[]; bias: number[] }[] = [];
    const R = spec.relativeCounts.length;
    const A = spec.absoluteCounts.length;
    const S = spec.shareGrid.length;
    for (let l = 0; l + 1 < sizes.length; l++) {
      const fanIn = sizes[l] as number;
      const fanOut = sizes[l + 1] as number;
      const last = l + 2 === sizes.length;
      const limit = Math.sqrt(6 / (fanIn + fanOut)) * (last ? 0.1 : 1);
      const weights = Array.from({ length: fanIn * fanOut }, () => (2 * rng.uniform() - 1) * limit);
      const bias = new Array<number>(fanOut).fill(0);
      if (last) {
        bias[0] = Math.log(directProbability / (1 - directProbability));
        if (habit !== undefined) {
          const tables = countTables(spec);
          const prior = decayWeights(tables, habit.decay ?? 0);
          for (let a = 0; a < A; a++) bias[2 + R + a] = prior[a] as number;
          const j = spec.absoluteCounts.indexOf(habit.width);
          if (j >= 0) bias[2 + R + j] = habitWeight(tables, habit.width, habit.probability, prior);
          const si = spec.shareGrid.indexOf(habit.share);
          if (si >= 0 && S > 1) bias[2 + R + A + si] = Math.log((habit.probability * (S - 1)) / (1 - habit.probability));
        }
      }
      layers.push({ weights, bias });
    }
    return MlpPolicy.fromSaved({ format: 'parl-sim-mlp-policy', version: 2, features: [...FEATURE_NAMES], spec: specOf(spec), layers });
  }

  /**
   * A network from its saved JSON form, validated.
   *
   * @throws {@link @parl/core!ParlInputError} naming the field that does not fit
   */
  static fromSaved(saved: SavedMlpPolicy): MlpPolicy {
    const spec = saved.spec;
    const sizes = [FEATURE_COUNT, ...spec.hidden, outputSizeOf(spec)];
    if (saved.layers.length !== sizes.length - 1) {
      throw new ParlInputError('layers', saved.layers.length, `${sizes.length - 1} layers for hidden sizes [${spec.hidden.join(', ')}]`);
    }
    const variables: tf.Variable[] = [];
    saved.layers.forEach((layer, l) => {
      const fanIn = sizes[l] as number;
      const fanOut = sizes[l + 1] as number;
      if (layer.weights.length !== fanIn * fanOut) {
        throw new ParlInputError(`layers[${l}].weights`, `${layer.weights.length} numbers`, `${fanIn * fanOut} numbers ([${fanIn}, ${fanOut}])`);
      }
      if (layer.bias.length !== fanOut) throw new ParlInputError(`layers[${l}].bias`, `${layer.bias.length} numbers`, `${fanOut} numbers`);
      for (const [name, arr] of [['weights', layer.weights], ['bias', layer.bias]] as const) {
        const bad = arr.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
        if (bad >= 0) throw new ParlInputError(`layers[${l}].${name}[${bad}]`, arr[bad], 'a finite number');
      }
      variables.push(tf.variable(tf.tensor2d(Float32Array.from(layer.weights), [fanIn, fanOut]), true, undefined, 'float32'));
      variables.push(tf.variable(tf.tensor1d(Float32Array.from(layer.bias)), true, undefined, 'float32'));
    });
    return new MlpPolicy(specOf(spec), variables);
  }

  /**
   * Network outputs `[n, outputSize]` for feature rows `[n, FEATURE_COUNT]` (call inside `tf.tidy`
   * or a gradient function). Each layer is one operation with its gradient written out
   * (`dense-layer.ts`), so that training runs on the backend's fast kernels.
   */
  logits(x: tf.Tensor2D): tf.Tensor2D {
    let h: tf.Tensor2D = x;
    const layers = this.variables.length / 2;
    for (let l = 0; l < layers; l++) {
      h = denseLayer(h, this.variables[2 * l] as tf.Variable as tf.Tensor2D, this.variables[2 * l + 1] as tf.Variable as tf.Tensor1D, l + 1 < layers, l > 0);
    }
    return h;
  }

  /**
   * The width head's basis for launch rows as one host array `[L, maxCount, R + A]`: row l holds,
   * for every count k, the R relative bumps at its ready count and then the A absolute bumps, in
   * the order of the network's width outputs. A matrix product with those outputs gives the width
   * logits (see {@link MlpPolicy.logProb}); it is a constant of the loss.
   *
   * @param readyCounts - ready subtasks of each launch row
   */
  widthBasis(readyCounts: ArrayLike<number>): tf.Tensor3D {
    const { relative, absolute } = this.tables;
    const C = this.spec.maxCount;
    const R = this.spec.relativeCounts.length;
    const A = this.spec.absoluteCounts.length;
    const J = R + A;
    const L = readyCounts.length;
    const out = new Float32Array(L * C * J);
    for (let l = 0; l < L; l++) {
      const ready = Math.min(Math.max(0, Math.round(readyCounts[l] as number)), MAX_SUBTASKS);
      for (let k = 0; k < C; k++) {
        const o = (l * C + k) * J;
        out.set(relative.subarray((ready * C + k) * R, (ready * C + k + 1) * R), o);
        out.set(absolute.subarray(k * A, (k + 1) * A), o + R);
      }
    }
    return tf.tensor3d(out, [L, C, J]);
  }

  /**
   * The constants {@link MlpPolicy.logProb} needs for a batch whose rows are ordered launches
   * first, built once so that every pass over the batch (a training step makes several) reuses
   * them: the chosen mode of every row, the chosen width and share of the launch rows, and the
   * launch rows' width basis. Dispose them with {@link disposeActionTensors}.
   *
   * @param features - feature rows `[n, FEATURE_COUNT]`
   * @param oneHots - action rows `[n, actionSize]` as in {@link MlpPolicy.logProb}
   * @param launches - how many of the first rows are launches
   */
  actionTensors(features: Float32Array, oneHots: Float32Array, launches: number): ActionTensors {
    const n = features.length / FEATURE_COUNT;
    const Aw = this.actionSize;
    const C = this.spec.maxCount;
    const S = this.spec.shareGrid.length;
    const mode = new Float32Array(n * 2);
    for (let r = 0; r < n; r++) {
      mode[r * 2] = oneHots[r * Aw] as number;
      mode[r * 2 + 1] = oneHots[r * Aw + 1] as number;
    }
    const width = new Float32Array(launches * C);
    const share = new Float32Array(launches * S);
    const ready = new Float32Array(launches);
    for (let r = 0; r < launches; r++) {
      width.set(oneHots.subarray(r * Aw + 2, r * Aw + 2 + C), r * C);
      share.set(oneHots.subarray(r * Aw + 2 + C, r * Aw + 2 + C + S), r * S);
      ready[r] = (features[r * FEATURE_COUNT] as number) * READY_SCALE;
    }
    return {
      launches,
      mode: tf.tensor2d(mode, [n, 2]),
      width: tf.tensor2d(width, [launches, C]),
      share: tf.tensor2d(share, [launches, S]),
      basis: this.widthBasis(ready),
    };
  }

  /**
   * Log-probabilities of the chosen actions `[n]` under the current weights (call inside a
   * `tf.tidy` or a gradient function). `oneHots` (`[n, actionSize]`) marks, per row, the chosen
   * mode and — for a launch — the chosen group size (column 2 + k − 1) and share; a direct call's
   * width and share columns are zero, so those heads add nothing to its log-probability and get
   * no gradient from it. The width head reads the ready subtasks back from the `ready` feature.
   *
   * @param actions - the same actions as {@link MlpPolicy.actionTensors} built them, for rows
   *   ordered launches first: the width and share heads are then computed for the launch rows
   *   only (a direct call's rows would add exactly 0). Without it, every row, from `oneHots`.
   */
  logProb(x: tf.Tensor2D, oneHots: tf.Tensor2D, actions?: ActionTensors): tf.Tensor1D {
    return this.logProbAndModeEntropy(x, oneHots, actions, false).logProb;
  }

  /**
   * {@link MlpPolicy.logProb} and, from the same forward pass, the mode head's entropy per row
   * `[n]` (−Σ p · ln p over direct call and launch), when `withEntropy` is set (call inside a
   * `tf.tidy` or a gradient function).
   */
  logProbAndModeEntropy(
    x: tf.Tensor2D,
    oneHots: tf.Tensor2D,
    actions: ActionTensors | undefined,
    withEntropy: boolean,
  ): { logProb: tf.Tensor1D; modeEntropy: tf.Tensor1D | null } {
    const n = x.shape[0];
    const out = this.logits(x);
    const R = this.spec.relativeCounts.length;
    const A = this.spec.absoluteCounts.length;
    const S = this.spec.shareGrid.length;
    const C = this.spec.maxCount;
    const L = actions?.launches ?? n;
    const modeHot = actions?.mode ?? tf.slice(oneHots, [0, 0], [n, 2]);
    const modeLogProbs = tf.logSoftmax(tf.slice(out, [0, 0], [n, 2]));
    const modeLp = tf.sum(tf.mul(modeLogProbs, modeHot), 1) as tf.Tensor1D;
    const modeEntropy = withEntropy ? (tf.neg(tf.sum(tf.mul(tf.exp(modeLogProbs), modeLogProbs), 1)) as tf.Tensor1D) : null;
    if (L === 0) return { logProb: modeLp, modeEntropy };
    let basis = actions?.basis;
    if (basis === undefined) {
      const ready = (tf.slice(x, [0, 0], [L, 1]).dataSync() as Float32Array).map((v) => v * READY_SCALE);
      basis = this.widthBasis(ready);
    }
    const widthHot = actions?.width ?? tf.slice(oneHots, [0, 2], [L, C]);
    const shareHot = actions?.share ?? tf.slice(oneHots, [0, 2 + C], [L, S]);
    const weights = tf.reshape(tf.slice(out, [0, 2], [L, R + A]), [L, R + A, 1]);
    const width = tf.reshape(tf.matMul(basis, weights), [L, C]);
    const widthLp = tf.sum(tf.mul(tf.logSoftmax(width), widthHot), 1);
    const shareLp = tf.sum(tf.mul(tf.logSoftmax(tf.slice(out, [0, 2 + R + A], [L, S])), shareHot), 1);
    let launchLp = tf.add(widthLp, shareLp) as tf.Tensor1D;
    if (L < n) launchLp = tf.concat([launchLp, tf.zeros([n - L])]) as tf.Tensor1D;
    return { logProb: tf.add(modeLp, launchLp) as tf.Tensor1D, modeEntropy };
  }

  /**
   * The weights as host arrays for acting, read back once after every change: an optimizer step
   * assigns each variable a new tensor (a new `dataId`), which invalidates the copy.
   */
  private hostLayers(): DenseLayer[] {
    const ids = this.variables.map((v) => (v as unknown as { dataId: object }).dataId);
    if (this.host === null || this.host.dataIds.some((id, i) => id !== ids[i])) {
      const layers: DenseLayer[] = [];
      for (let l = 0; l < this.variables.length; l += 2) {
        const w = this.variables[l] as tf.Variable;
        layers.push({
          fanIn: w.shape[0] as number,
          fanOut: w.shape[1] as number,
          weights: Float32Array.from(w.dataSync() as Float32Array),
          bias: Float32Array.from((this.variables[l + 1] as tf.Variable).dataSync() as Float32Array),
        });
      }
      this.host = { layers, dataIds: ids };
    }
    return this.host.layers;
  }

  /** {@inheritDoc Policy.act} */
  act(env: SwarmBatch, list: Int32Array, length: number, greedy: boolean, out: ActionBatch): void {
    this.actTraced(env, list, length, greedy, out, undefined);
  }

  /** {@link MlpPolicy.act}, appending each decision to `trace` when given (for training). */
  actTraced(env: SwarmBatch, list: Int32Array, length: number, greedy: boolean, out: ActionBatch, trace: DecisionTrace | undefined, slotOffset = 0): void {
    if (this.features.length < length * FEATURE_COUNT) this.features = new Float32Array(length * FEATURE_COUNT);
    const x = this.features.subarray(0, length * FEATURE_COUNT);
    env.observe(list, length, x);
    const O = this.outputSize;
    if (this.outputs.length < length * O) this.outputs = new Float32Array(length * O);
    const values = this.outputs;
    // The mode logits for every row; the width and share outputs only for the rows that launch.
    const layers = this.hostLayers();
    this.hostScratch = denseForward(layers, x, length, values, this.hostScratch, 2);
    const lastLayer = layers[layers.length - 1] as DenseLayer;
    const lastInput = layers.length > 1 ? (this.hostScratch[layers.length - 2] as Float32Array) : x;
    const R = this.spec.relativeCounts.length;
    const A = this.spec.absoluteCounts.length;
    const Sg = this.spec.shareGrid;
    const counts = this.countRow;
    for (let r = 0; r < length; r++) {
      const b = list[r] as number;
      const o = r * O;
      const mode = sampleIndex(values, o, 2, greedy, greedy ? 0 : nextUniform(env.rng, b));
      let ki = 0;
      let si = 0;
      if (mode === MODE_LAUNCH) {
        denseRowOutputs(lastLayer, lastInput, r, 2, O, values);
        const ready = env.readyCount[b] as number;
        countLogits(this.tables, values, o + 2, ready, counts);
        ki = sampleIndex(counts, 0, counts.length, greedy, greedy ? 0 : nextUniform(env.rng, b));
        si = sampleIndex(values, o + 2 + R + A, Sg.length, greedy, greedy ? 0 : nextUniform(env.rng, b));
        out.mode[r] = MODE_LAUNCH;
        out.width[r] = ki + 1;
        out.handout[r] = Math.max(1, Math.round((Sg[si] as number) * ready));
      } else {
        out.mode[r] = MODE_DIRECT;
      }
      if (trace !== undefined) {
        for (let f = 0; f < FEATURE_COUNT; f++) trace.features.push(x[r * FEATURE_COUNT + f] as number);
        trace.mode.push(mode);
        trace.width.push(ki);
        trace.share.push(si);
        trace.slot.push(slotOffset + b);
      }
    }
  }

  /** The weights as plain JSON, for `policy/policy.json`. */
  toSaved(): SavedMlpPolicy {
    const layers: { weights: number[]; bias: number[] }[] = [];
    for (let l = 0; l < this.variables.length; l += 2) {
      layers.push({
        weights: Array.from((this.variables[l] as tf.Variable).dataSync()),
        bias: Array.from((this.variables[l + 1] as tf.Variable).dataSync()),
      });
    }
    return { format: 'parl-sim-mlp-policy', version: 2, features: [...FEATURE_NAMES], spec: specOf(this.spec), layers };
  }

  /** Free the weights' tensors. */
  dispose(): void {
    for (const v of this.variables) v.dispose();
    this.host = null;
  }
}
