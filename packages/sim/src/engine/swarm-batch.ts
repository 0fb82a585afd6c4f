/**
 * The batched swarm engine: many episodes stepped at once over typed arrays, one PRNG stream per
 * episode, no allocation per stage unless stage logging is on. Every other entry point
 * (`simulate`, training, the benchmark) drives this one engine.
 *
 * @module
 */
import type { StageRecord, SubAgentRun } from '@parl/core';
import { MODE_DIRECT, type ActionBatch } from './actions.js';
import { maxSubtasksOf, type EnvConfig } from './env-config.js';
import { FEATURE_COUNT, READY_SCALE } from '../internal/engine/features.js';
import { mixSeed, nextUniform } from '../internal/engine/rng.js';

/**
 * Why an episode ended: every subtask returned (`done`), cut by the critical-step budget
 * (`budget`), by the orchestrator's step limit (`max_steps`) or its full context (`context`), or
 * the orchestrator answered before the work was done (`answered`, delegate-only).
 */
export type EndReason = 'running' | 'done' | 'budget' | 'max_steps' | 'context' | 'answered';

/** End reasons by code, as stored in {@link SwarmBatch.endReason}. */
export const END_REASONS: readonly EndReason[] = ['running', 'done', 'budget', 'max_steps', 'context', 'answered'];

/** The end reasons that count as truncated: cut by the budget or by the orchestrator's limits (steps, context). */
export const TRUNCATED_END_REASONS: readonly EndReason[] = ['budget', 'max_steps', 'context'];

const END_RUNNING = 0;
const END_DONE = 1;
const END_BUDGET = 2;
const END_MAX_STEPS = 3;
const END_CONTEXT = 4;
const END_ANSWERED = 5;

const STATE_BLOCKED = 0;
const STATE_READY = 1;
const STATE_DONE = 2;

/** Options of a {@link SwarmBatch}. */
export interface SwarmBatchOptions {
  /** Keep each episode's stages (needed for spec §5 records; off for raw speed). */
  readonly recordStages: boolean;
  /**
   * What the `clock` feature divides by (default: the budget, else the orchestrator's max steps).
   * Set it to keep a policy's view unchanged when a budget is lifted for measurement.
   */
  readonly clockScale?: number;
}

/**
 * B episodes of the simulated swarm in structure-of-arrays form.
 *
 * Use: {@link SwarmBatch.reset} each slot with a task seed and an episode seed, then loop
 * {@link SwarmBatch.activeList} → policy → {@link SwarmBatch.step} until no episode is active.
 *
 * @example
 * ```ts
 * import { mixSeed } from '../internal/engine/rng.js';
 * const env = new SwarmBatch(resolveEnvConfig({}), 64, { recordStages: false });
 * for (let b = 0; b < 64; b++) env.reset(b, mixSeed(1, b), mixSeed(2, b));
 * env.activeList().length; // 64
 * ```
 */
export class SwarmBatch {
  /** The environment parameters. */
  readonly env: EnvConfig;
  /** Number of episode slots. */
  readonly capacity: number;
  /** Subtask capacity per task. */
  readonly maxSubtasks: number;

  /** Subtasks per task. */
  readonly subtasks: Int32Array;
  /** 1 when the slot's task is deep (has dependencies). */
  readonly deep: Uint8Array;
  /** Subtask costs, `[B, S]`. */
  readonly cost: Float64Array;
  /** Dependency layer of each subtask, `[B, S]`. */
  readonly layer: Int16Array;
  /** Parent subtask (−1 for none), `[B, S]`. */
  readonly parent: Int16Array;
  /** 1 when the subtask feeds the final aggregation subtask, `[B, S]`. */
  readonly feedsAggregate: Uint8Array;
  /** The aggregation subtask of a deep task, −1 for wide tasks. */
  readonly aggregate: Int16Array;
  /** Unmet dependencies per subtask, `[B, S]`. */
  readonly unmet: Int16Array;
  /** Subtask state (blocked, ready, done), `[B, S]`. */
  readonly state: Uint8Array;
  /** Times each subtask was solved (0 or 1 by construction), `[B, S]`. */
  readonly solvedTimes: Uint8Array;
  /** 1 when the subtask's result is correct, `[B, S]`. */
  readonly correct: Uint8Array;

  /** One PRNG state per episode. */
  readonly rng: Int32Array;
  /** 1 while the episode runs. */
  readonly active: Uint8Array;
  /** End reason code per episode (index into {@link END_REASONS}). */
  readonly endReason: Uint8Array;
  /** Ready subtasks. */
  readonly readyCount: Int32Array;
  /** Subtasks done. */
  readonly doneCount: Int32Array;
  /** Subtasks done correctly. */
  readonly correctCount: Int32Array;
  /** Subtasks done correctly before the current stage (for `truncate` budgets). */
  readonly correctBeforeStage: Int32Array;
  /** The simulator clock: Σ (S_main + max S_sub) over stages so far. */
  readonly clock: Float64Array;
  /** Orchestrator steps used: Σ S_main. */
  readonly mainUsed: Float64Array;
  /** Orchestrator context used. */
  readonly contextUsed: Float64Array;
  /** Stages run. */
  readonly stages: Int32Array;
  /** Sub-agents launched. */
  readonly subagents: Int32Array;
  /** Sub-agents that finished their assignment. */
  readonly finishedSubagents: Int32Array;
  /** Stages that launched a group. */
  readonly groups: Int32Array;
  /** Replies that repeated an earlier turn (delegate-only). */
  readonly repeats: Int32Array;
  /**
   * r_perf at the end of the episode: the share of subtasks solved correctly — after a budget cut,
   * of those solved before the stage that crossed it. What a cut then means (`fail`: 0) is core's
   * rule, applied when the record is scored with the budget (`rewardOfEpisode`).
   */
  readonly rPerf: Float64Array;
  /** The stages of each episode, when stage logging is on. */
  readonly logs: StageRecord[][] | null;

  private readonly agentSteps: Float64Array;
  private readonly agentLoad: Int32Array;
  private readonly handed: Int32Array;
  private readonly list: Int32Array;
  private readonly clockScale: number;

  /**
   * @param env - resolved environment parameters
   * @param capacity - number of episode slots B
   * @param options - whether to log stages
   */
  constructor(env: EnvConfig, capacity: number, options: SwarmBatchOptions) {
    this.env = env;
    this.capacity = capacity;
    const S = maxSubtasksOf(env);
    this.maxSubtasks = S;
    const BS = capacity * S;
    this.subtasks = new Int32Array(capacity);
    this.deep = new Uint8Array(capacity);
    this.cost = new Float64Array(BS);
    this.layer = new Int16Array(BS);
    this.parent = new Int16Array(BS);
    this.feedsAggregate = new Uint8Array(BS);
    this.aggregate = new Int16Array(capacity);
    this.unmet = new Int16Array(BS);
    this.state = new Uint8Array(BS);
    this.solvedTimes = new Uint8Array(BS);
    this.correct = new Uint8Array(BS);
    this.rng = new Int32Array(capacity);
    this.active = new Uint8Array(capacity);
    this.endReason = new Uint8Array(capacity);
    this.readyCount = new Int32Array(capacity);
    this.doneCount = new Int32Array(capacity);
    this.correctCount = new Int32Array(capacity);
    this.correctBeforeStage = new Int32Array(capacity);
    this.clock = new Float64Array(capacity);
    this.mainUsed = new Float64Array(capacity);
    this.contextUsed = new Float64Array(capacity);
    this.stages = new Int32Array(capacity);
    this.subagents = new Int32Array(capacity);
    this.finishedSubagents = new Int32Array(capacity);
    this.groups = new Int32Array(capacity);
    this.repeats = new Int32Array(capacity);
    this.rPerf = new Float64Array(capacity);
    this.logs = options.recordStages ? Array.from({ length: capacity }, () => []) : null;
    this.agentSteps = new Float64Array(env.maxSubagentsPerGroup);
    this.agentLoad = new Int32Array(env.maxSubagentsPerGroup);
    this.handed = new Int32Array(S);
    this.list = new Int32Array(capacity);
    this.clockScale = options.clockScale ?? (env.budget !== null && env.budget > 0 ? env.budget : env.orchestratorMaxSteps);
  }

  /**
   * Draw a fresh task into slot `b` and start its episode.
   *
   * @param b - the slot
   * @param taskSeed - seeds the task (family, size, costs, dependencies): equal seeds, equal tasks
   * @param episodeSeed - seeds everything that happens while it runs (step noise, failures, sampling)
   */
  reset(b: number, taskSeed: number, episodeSeed: number): void {
    const env = this.env;
    const S = this.maxSubtasks;
    const base = b * S;
    const rng = this.rng;
    rng[b] = mixSeed(taskSeed, 0x7a5c);
    const deep = env.family === 'deep' || (env.family === 'mixed' && nextUniform(rng, b) < env.mixedDeepShare);
    let n: number;
    const tail = env.costMean - env.costMin;
    if (!deep) {
      const [lo, hi] = env.wideSubtasks;
      n = lo + Math.floor(nextUniform(rng, b) * (hi - lo + 1));
      for (let i = 0; i < n; i++) {
        this.layer[base + i] = 0;
        this.parent[base + i] = -1;
        this.feedsAggregate[base + i] = 0;
        this.unmet[base + i] = 0;
      }
      this.aggregate[b] = -1;
    } else {
      const [llo, lhi] = env.deepLayers;
      const [wlo, whi] = env.deepLayerWidth;
      const layers = llo + Math.floor(nextUniform(rng, b) * (lhi - llo + 1));
      n = 0;
      let prevStart = 0;
      let prevWidth = 0;
      for (let l = 0; l < layers; l++) {
        const w = wlo + Math.floor(nextUniform(rng, b) * (whi - wlo + 1));
        for (let j = 0; j < w; j++) {
          const i = base + n + j;
          this.layer[i] = l;
          this.feedsAggregate[i] = 1;
          if (l === 0) {
            this.parent[i] = -1;
            this.unmet[i] = 0;
          } else {
            const p = prevStart + Math.floor(nextUniform(rng, b) * prevWidth);
            this.parent[i] = p;
            this.unmet[i] = 1;
            this.feedsAggregate[base + p] = 0;
          }
        }
        prevStart = n;
        prevWidth = w;
        n += w;
      }
      let feeds = 0;
      for (let i = 0; i < n; i++) feeds += this.feedsAggregate[base + i] as number;
      const agg = base + n;
      this.layer[agg] = layers;
      this.parent[agg] = -1;
      this.feedsAggregate[agg] = 0;
      this.unmet[agg] = feeds;
      this.aggregate[b] = n;
      n += 1;
    }
    let ready = 0;
    for (let i = 0; i < n; i++) {
      const u = nextUniform(rng, b);
      const c = env.costMin - tail * Math.log(1 - u);
      this.cost[base + i] = c > env.costMax ? env.costMax : c;
      const isReady = this.unmet[base + i] === 0;
      this.state[base + i] = isReady ? STATE_READY : STATE_BLOCKED;
      this.solvedTimes[base + i] = 0;
      this.correct[base + i] = 0;
      if (isReady) ready++;
    }
    this.subtasks[b] = n;
    this.deep[b] = deep ? 1 : 0;
    rng[b] = episodeSeed | 0;
    this.active[b] = 1;
    this.endReason[b] = END_RUNNING;
    this.readyCount[b] = ready;
    this.doneCount[b] = 0;
    this.correctCount[b] = 0;
    this.correctBeforeStage[b] = 0;
    this.clock[b] = 0;
    this.mainUsed[b] = 0;
    this.contextUsed[b] = 0;
    this.stages[b] = 0;
    this.subagents[b] = 0;
    this.finishedSubagents[b] = 0;
    this.groups[b] = 0;
    this.repeats[b] = 0;
    this.rPerf[b] = 0;
    if (this.logs !== null) this.logs[b] = [];
  }

  /**
   * The active slots among the first `count`, written into a reused list.
   *
   * @returns the list (valid up to the returned length) and its length
   */
  activeList(count: number = this.capacity): { list: Int32Array; length: number } {
    let k = 0;
    for (let b = 0; b < count; b++) if (this.active[b] === 1) this.list[k++] = b;
    return { list: this.list, length: k };
  }

  /**
   * Write the state features (see `FEATURE_NAMES`) of `length` slots from `list` into `out`,
   * row-major `[length, FEATURE_COUNT]`.
   */
  observe(list: Int32Array, length: number, out: Float32Array): void {
    const env = this.env;
    const S = this.maxSubtasks;
    const clockScale = this.clockScale;
    const concurrency = env.concurrency === null ? 1 : Math.min(1, env.concurrency / env.maxSubagentsPerGroup);
    for (let r = 0; r < length; r++) {
      const b = list[r] as number;
      const base = b * S;
      const n = this.subtasks[b] as number;
      const ready = this.readyCount[b] as number;
      const remaining = n - (this.doneCount[b] as number);
      let minLayer = 1 << 14;
      let maxLayer = -1;
      let readyCost = 0;
      for (let i = 0; i < n; i++) {
        const st = this.state[base + i];
        if (st === STATE_DONE) continue;
        const l = this.layer[base + i] as number;
        if (l < minLayer) minLayer = l;
        if (l > maxLayer) maxLayer = l;
        if (st === STATE_READY) readyCost += this.cost[base + i] as number;
      }
      const depth = maxLayer < 0 ? 0 : maxLayer - minLayer + 1;
      const o = r * FEATURE_COUNT;
      out[o] = ready / READY_SCALE;
      out[o + 1] = remaining / 32;
      out[o + 2] = depth / 4;
      out[o + 3] = (this.contextUsed[b] as number) / env.contextSize;
      out[o + 4] = (this.mainUsed[b] as number) / env.orchestratorMaxSteps;
      out[o + 5] = (this.clock[b] as number) / clockScale;
      out[o + 6] = n === 0 ? 1 : (n - remaining) / n;
      out[o + 7] = ready === 0 ? 0 : readyCost / ready / (4 * env.costMean);
      out[o + 8] = Math.log1p(ready) / Math.log1p(100);
      out[o + 9] = ready === remaining ? 1 : 0;
      out[o + 10] = ready === 1 ? 1 : 0;
      out[o + 11] = n / 32;
      out[o + 12] = concurrency;
    }
  }

  /**
   * Run one stage of each listed episode with the action at the same position in `actions`.
   *
   * @param list - the slots to step (all active)
   * @param length - how many entries of `list` to use
   * @param actions - one action per list position
   */
  step(list: Int32Array, length: number, actions: ActionBatch): void {
    for (let r = 0; r < length; r++) {
      const b = list[r] as number;
      if (actions.mode[r] === MODE_DIRECT) {
        if (this.env.directAction) this.directCall(b);
        else this.reply(b);
      } else this.launch(b, actions.width[r] as number, actions.handout[r] as number);
    }
  }

  private completeSubtask(b: number, i: number, isCorrect: boolean): void {
    const S = this.maxSubtasks;
    const base = b * S;
    this.state[base + i] = STATE_DONE;
    this.solvedTimes[base + i] = (this.solvedTimes[base + i] as number) + 1;
    this.readyCount[b] = (this.readyCount[b] as number) - 1;
    this.doneCount[b] = (this.doneCount[b] as number) + 1;
    if (isCorrect) {
      this.correct[base + i] = 1;
      this.correctCount[b] = (this.correctCount[b] as number) + 1;
    }
    if (this.deep[b] === 0) return;
    const n = this.subtasks[b] as number;
    for (let j = i + 1; j < n; j++) {
      if (this.parent[base + j] === i) this.release(b, base, j);
    }
    if (this.feedsAggregate[base + i] === 1) this.release(b, base, this.aggregate[b] as number);
  }

  private release(b: number, base: number, j: number): void {
    const left = (this.unmet[base + j] as number) - 1;
    this.unmet[base + j] = left;
    if (left === 0) {
      this.state[base + j] = STATE_READY;
      this.readyCount[b] = (this.readyCount[b] as number) + 1;
    }
  }

  private firstReady(base: number, n: number): number {
    for (let i = 0; i < n; i++) if (this.state[base + i] === STATE_READY) return i;
    return -1;
  }

  private directCall(b: number): void {
    const env = this.env;
    const base = b * this.maxSubtasks;
    const i = this.firstReady(base, this.subtasks[b] as number);
    // Unreachable: a running episode always has a ready subtask (failed work returns to ready).
    if (i < 0) throw new Error(`SwarmBatch: episode in slot ${b} has no ready subtask for a direct call`);
    this.correctBeforeStage[b] = this.correctCount[b] as number;
    const rng = this.rng;
    const noise = 1 + env.stepNoise * (2 * nextUniform(rng, b) - 1);
    const main = env.directOverhead + (this.cost[base + i] as number) * noise;
    let fill = (this.contextUsed[b] as number) / env.contextSize;
    if (fill > 1) fill = 1;
    const accuracy = env.directAccuracy * (1 - env.contextDegradation * fill);
    this.completeSubtask(b, i, nextUniform(rng, b) < accuracy);
    this.contextUsed[b] = (this.contextUsed[b] as number) + main * env.contextPerStep;
    if (this.logs !== null) (this.logs[b] as StageRecord[]).push({ main_steps: main, sub_steps: [] });
    this.endStage(b, main, 0);
  }

  /**
   * A turn without a tool call (delegate-only): with probability `repeatProbability` it repeats an
   * earlier turn — a wasted stage that fills the context — else it is the final answer, scored on
   * what the orchestrator has: the results returned so far, and each subtask not yet done
   * answered from memory (correct with `recallAccuracy` times the context factor).
   */
  private reply(b: number): void {
    const env = this.env;
    const rng = this.rng;
    this.correctBeforeStage[b] = this.correctCount[b] as number;
    const main = env.replySteps;
    if (this.logs !== null) (this.logs[b] as StageRecord[]).push({ main_steps: main, sub_steps: [] });
    if (nextUniform(rng, b) < env.repeatProbability) {
      this.repeats[b] = (this.repeats[b] as number) + 1;
      this.contextUsed[b] = (this.contextUsed[b] as number) + env.repeatContext;
      this.endStage(b, main, 0);
      return;
    }
    this.clock[b] = (this.clock[b] as number) + main;
    this.mainUsed[b] = (this.mainUsed[b] as number) + main;
    this.stages[b] = (this.stages[b] as number) + 1;
    if (env.budget !== null && (this.clock[b] as number) > env.budget) {
      this.finish(b, END_BUDGET);
      return;
    }
    let fill = (this.contextUsed[b] as number) / env.contextSize;
    if (fill > 1) fill = 1;
    const accuracy = env.recallAccuracy * (1 - env.contextDegradation * fill);
    const base = b * this.maxSubtasks;
    const n = this.subtasks[b] as number;
    let recalled = 0;
    for (let i = 0; i < n; i++) if (this.state[base + i] !== STATE_DONE && nextUniform(rng, b) < accuracy) recalled++;
    this.finish(b, END_ANSWERED);
    this.rPerf[b] = ((this.correctCount[b] as number) + recalled) / n;
  }

  private launch(b: number, widthIn: number, handoutIn: number): void {
    const env = this.env;
    const S = this.maxSubtasks;
    const base = b * S;
    const n = this.subtasks[b] as number;
    const rng = this.rng;
    const k = widthIn < 1 ? 1 : widthIn > env.maxSubagentsPerGroup ? env.maxSubagentsPerGroup : widthIn | 0;
    const ready = this.readyCount[b] as number;
    const m = handoutIn < 1 ? 1 : handoutIn > ready ? ready : handoutIn | 0;
    const handed = this.handed;
    let h = 0;
    for (let i = 0; i < n && h < m; i++) if (this.state[base + i] === STATE_READY) handed[h++] = i;
    const steps = this.agentSteps;
    const load = this.agentLoad;
    const working = m < k ? m : k;
    for (let a = 0; a < working; a++) {
      steps[a] = env.subagentOverhead;
      load[a] = 0;
    }
    for (let j = 0; j < m; j++) {
      const a = j % k;
      const noise = 1 + env.stepNoise * (2 * nextUniform(rng, b) - 1);
      steps[a] = (steps[a] as number) + (this.cost[base + (handed[j] as number)] as number) * noise;
      load[a] = (load[a] as number) + 1;
    }
    this.contextUsed[b] = (this.contextUsed[b] as number) + env.launchContext;
    const log = this.logs === null ? null : (this.logs[b] as StageRecord[]);
    const wave = env.concurrency === null || env.concurrency > k ? k : env.concurrency;
    this.groups[b] = (this.groups[b] as number) + 1;
    this.mainUsed[b] = (this.mainUsed[b] as number) + env.launchSteps;
    for (let first = 0; first < k; first += wave) {
      const last = first + wave < k ? first + wave : k;
      const main = first === 0 ? env.launchSteps : 0;
      this.correctBeforeStage[b] = this.correctCount[b] as number;
      let fill = (this.contextUsed[b] as number) / env.contextSize;
      if (fill > 1) fill = 1;
      const accuracy = env.subagentAccuracy * (1 - env.contextDegradation * fill);
      const runs: SubAgentRun[] | null = log === null ? null : new Array<SubAgentRun>(last - first);
      let stageMax = 0;
      let finished = 0;
      for (let a = first; a < last; a++) {
        if (a >= working) {
          if (env.idleSteps > stageMax) stageMax = env.idleSteps;
          if (runs !== null) runs[a - first] = { steps: env.idleSteps, finished: false };
          continue;
        }
        let s = steps[a] as number;
        const l = load[a] as number;
        let pFail = env.subagentFailBase + env.subagentFailPerExtra * (l - 1) * (l - 1);
        if (pFail > 1) pFail = 1;
        let ok = nextUniform(rng, b) >= pFail;
        if (s > env.subagentStepLimit) {
          s = env.subagentStepLimit;
          ok = false;
        }
        if (ok) {
          finished++;
          const loaded = 1 - env.subagentLoadDegradation * (l - 1);
          const agentAccuracy = loaded > 0 ? accuracy * loaded : 0;
          for (let j = a; j < m; j += k) this.completeSubtask(b, handed[j] as number, nextUniform(rng, b) < agentAccuracy);
        }
        if (s > stageMax) stageMax = s;
        if (runs !== null) runs[a - first] = { steps: s, finished: ok };
      }
      this.subagents[b] = (this.subagents[b] as number) + (last - first);
      this.finishedSubagents[b] = (this.finishedSubagents[b] as number) + finished;
      this.contextUsed[b] = (this.contextUsed[b] as number) + (last - first) * env.resultContext;
      if (log !== null && runs !== null) log.push({ main_steps: main, sub_steps: runs });
      this.clock[b] = (this.clock[b] as number) + (main + stageMax);
      this.stages[b] = (this.stages[b] as number) + 1;
      // A wave that crosses the budget ends the episode there: later waves never start.
      if (last < k && env.budget !== null && (this.clock[b] as number) > env.budget) {
        this.finish(b, END_BUDGET);
        return;
      }
    }
    this.checkEnd(b);
  }

  private endStage(b: number, main: number, stageMax: number): void {
    this.clock[b] = (this.clock[b] as number) + (main + stageMax);
    this.mainUsed[b] = (this.mainUsed[b] as number) + main;
    this.stages[b] = (this.stages[b] as number) + 1;
    this.checkEnd(b);
  }

  private checkEnd(b: number): void {
    const env = this.env;
    const clock = this.clock[b] as number;
    const n = this.subtasks[b] as number;
    let reason = END_RUNNING;
    if (env.budget !== null && clock > env.budget) reason = END_BUDGET;
    else if (this.doneCount[b] === n) reason = END_DONE;
    else if ((this.mainUsed[b] as number) >= env.orchestratorMaxSteps) reason = END_MAX_STEPS;
    else if ((this.contextUsed[b] as number) >= env.contextSize) reason = END_CONTEXT;
    if (reason !== END_RUNNING) this.finish(b, reason);
  }

  private finish(b: number, reason: number): void {
    const n = this.subtasks[b] as number;
    this.active[b] = 0;
    this.endReason[b] = reason;
    this.rPerf[b] = ((reason === END_BUDGET ? this.correctBeforeStage[b] : this.correctCount[b]) as number) / n;
  }
}
