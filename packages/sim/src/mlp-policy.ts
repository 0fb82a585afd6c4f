/**
 * The orchestrator's policy network: a small tfjs MLP over the state features with three
 * categorical heads — mode (direct call or launch), group width k from a grid, and the share of
 * ready subtasks to hand out. Acting is batched: one forward pass per decision step for every
 * active episode.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { tf } from '@parl/gpu';
import { MODE_DIRECT, MODE_LAUNCH, type ActionBatch } from './actions.js';
import { FEATURE_COUNT, FEATURE_NAMES } from './features.js';
import type { Policy } from './policy.js';
import { Rng, nextUniform } from './rng.js';
import type { SwarmBatch } from './swarm-batch.js';
import { parseWidthRule, widthOf, type WidthRule } from './width-rules.js';

/** The shape of a policy network and its action grids. */
export interface MlpSpec {
  /** Hidden layer sizes (tanh). */
  readonly hidden: readonly number[];
  /** Width rules the launch head chooses from (see `parseWidthRule`): `"1"`, `"m/4"`, `"m"`, `"2m"`, `"max"`, … */
  readonly widthGrid: readonly string[];
  /** Shares of the ready subtasks the hand-out head chooses from; m = max(1, round(share × ready)). */
  readonly shareGrid: readonly number[];
}

/**
 * The default network: two hidden layers of 32; widths one sub-agent, m/4, m/2, m, 2m, 4m or the
 * group limit; shares ¼, ½ or all of the ready subtasks.
 */
export const DEFAULT_MLP_SPEC: MlpSpec = {
  hidden: [32, 32],
  widthGrid: ['1', 'm/4', 'm/2', 'm', '2m', '4m', 'max'],
  shareGrid: [0.25, 0.5, 1],
};

/**
 * What an untrained orchestrator does when it does launch: a model trained on single-agent work
 * hands the whole job to one helper. The width head starts favouring `width` and the share head
 * `share`, each with probability `probability`.
 */
export interface InitialHabit {
  /** The favoured width rule (a value of the width grid). */
  readonly width: string;
  /** The favoured share of ready subtasks (a value of the share grid). */
  readonly share: number;
  /** Starting probability of the favoured width and of the favoured share. */
  readonly probability: number;
}

/** A policy network's weights in plain JSON (the `policy/policy.json` file). */
export interface SavedMlpPolicy {
  /** Format marker, `parl-sim-mlp-policy`. */
  readonly format: 'parl-sim-mlp-policy';
  /** Format version, 1. */
  readonly version: 1;
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
  /** Width-grid index per decision (0 for a direct call, unused). */
  readonly width: number[];
  /** Share-grid index per decision (0 for a direct call, unused). */
  readonly share: number[];
  /** The slot that took the decision. */
  readonly slot: number[];
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
  /** Network shape and grids. */
  readonly spec: MlpSpec;
  /** Weights and biases, layer by layer: `[W0, b0, W1, b1, …]`. */
  readonly variables: tf.Variable[];
  private features: Float32Array = new Float32Array(0);
  private readonly widthRules: readonly WidthRule[];

  private constructor(spec: MlpSpec, variables: tf.Variable[]) {
    this.spec = spec;
    this.variables = variables;
    this.widthRules = spec.widthGrid.map((w, i) => parseWidthRule(w, `spec.widthGrid[${i}]`));
  }

  /** Number of logits: 2 mode + widths + shares. */
  get outputSize(): number {
    return 2 + this.spec.widthGrid.length + this.spec.shareGrid.length;
  }

  /**
   * A freshly initialised network (Glorot-uniform weights from `seed`) whose mode head starts
   * with direct calls at probability `directProbability`, like a model trained on single-agent
   * work; the width and share heads start near uniform.
   */
  static create(spec: MlpSpec, directProbability: number, seed: number, habit?: InitialHabit): MlpPolicy {
    const rng = new Rng(seed);
    const sizes = [FEATURE_COUNT, ...spec.hidden, 2 + spec.widthGrid.length + spec.shareGrid.length];
    const layers: { weights: number[]; bias: number[] }[] = [];
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
          const favour = (offset: number, size: number, index: number): void => {
            if (index < 0 || size < 2) return;
            bias[offset + index] = Math.log((habit.probability * (size - 1)) / (1 - habit.probability));
          };
          favour(2, spec.widthGrid.length, spec.widthGrid.indexOf(habit.width));
          favour(2 + spec.widthGrid.length, spec.shareGrid.length, spec.shareGrid.indexOf(habit.share));
        }
      }
      layers.push({ weights, bias });
    }
    const shape: MlpSpec = { hidden: [...spec.hidden], widthGrid: [...spec.widthGrid], shareGrid: [...spec.shareGrid] };
    return MlpPolicy.fromSaved({ format: 'parl-sim-mlp-policy', version: 1, features: [...FEATURE_NAMES], spec: shape, layers });
  }

  /**
   * A network from its saved JSON form, validated.
   *
   * @throws {@link @parl/core!ParlInputError} naming the field that does not fit
   */
  static fromSaved(saved: SavedMlpPolicy): MlpPolicy {
    const spec = saved.spec;
    const sizes = [FEATURE_COUNT, ...spec.hidden, 2 + spec.widthGrid.length + spec.shareGrid.length];
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
    return new MlpPolicy(spec, variables);
  }

  /** Logits `[n, outputSize]` for feature rows `[n, FEATURE_COUNT]` (call inside `tf.tidy`). */
  logits(x: tf.Tensor2D): tf.Tensor2D {
    let h: tf.Tensor2D = x;
    const layers = this.variables.length / 2;
    for (let l = 0; l < layers; l++) {
      const z = tf.add(tf.matMul(h, this.variables[2 * l] as tf.Variable), this.variables[2 * l + 1] as tf.Variable) as tf.Tensor2D;
      h = l + 1 < layers ? tf.tanh(z) : z;
    }
    return h;
  }

  /**
   * Log-probabilities of the chosen actions `[n]` under the current weights (call inside a
   * `tf.tidy` or a gradient function). `multiHot` marks, per row, the chosen mode and — for a
   * launch — the chosen width and share; a direct call's width and share heads have zeros there,
   * so they add nothing to its log-probability and get no gradient from it.
   */
  logProb(x: tf.Tensor2D, multiHot: tf.Tensor2D): tf.Tensor1D {
    const logits = this.logits(x);
    const w = this.spec.widthGrid.length;
    const s = this.spec.shareGrid.length;
    const [mode, width, share] = tf.split(logits, [2, w, s], 1) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    const lp = tf.concat([tf.logSoftmax(mode), tf.logSoftmax(width), tf.logSoftmax(share)], 1);
    return tf.sum(tf.mul(lp, multiHot), 1) as tf.Tensor1D;
  }

  /** {@inheritDoc Policy.act} */
  act(env: SwarmBatch, list: Int32Array, length: number, greedy: boolean, out: ActionBatch): void {
    this.actTraced(env, list, length, greedy, out, undefined);
  }

  /** {@link MlpPolicy.act}, appending each decision to `trace` when given (for training). */
  actTraced(env: SwarmBatch, list: Int32Array, length: number, greedy: boolean, out: ActionBatch, trace: DecisionTrace | undefined): void {
    if (this.features.length < length * FEATURE_COUNT) this.features = new Float32Array(length * FEATURE_COUNT);
    const x = this.features.subarray(0, length * FEATURE_COUNT);
    env.observe(list, length, x);
    const logits = tf.tidy(() => this.logits(tf.tensor2d(x, [length, FEATURE_COUNT])));
    const values = logits.dataSync() as Float32Array;
    logits.dispose();
    const A = this.outputSize;
    const W = this.spec.widthGrid;
    const Sg = this.spec.shareGrid;
    const maxGroup = env.env.maxSubagentsPerGroup;
    for (let r = 0; r < length; r++) {
      const b = list[r] as number;
      const o = r * A;
      const mode = sampleIndex(values, o, 2, greedy, greedy ? 0 : nextUniform(env.rng, b));
      let wi = 0;
      let si = 0;
      if (mode === MODE_LAUNCH) {
        wi = sampleIndex(values, o + 2, W.length, greedy, greedy ? 0 : nextUniform(env.rng, b));
        si = sampleIndex(values, o + 2 + W.length, Sg.length, greedy, greedy ? 0 : nextUniform(env.rng, b));
        const ready = env.readyCount[b] as number;
        const m = Math.max(1, Math.round((Sg[si] as number) * ready));
        out.mode[r] = MODE_LAUNCH;
        out.width[r] = widthOf(this.widthRules[wi] as WidthRule, m, maxGroup);
        out.handout[r] = m;
      } else {
        out.mode[r] = MODE_DIRECT;
      }
      if (trace !== undefined) {
        for (let f = 0; f < FEATURE_COUNT; f++) trace.features.push(x[r * FEATURE_COUNT + f] as number);
        trace.mode.push(mode);
        trace.width.push(wi);
        trace.share.push(si);
        trace.slot.push(b);
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
    return { format: 'parl-sim-mlp-policy', version: 1, features: [...FEATURE_NAMES], spec: this.spec, layers };
  }

  /** Free the weights' tensors. */
  dispose(): void {
    for (const v of this.variables) v.dispose();
  }
}
