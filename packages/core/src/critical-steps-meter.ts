/**
 * A live critical-steps meter (spec §2, §7, §10): fed the events of an episode as it runs —
 * model calls (each opens its agent's next stage), sub-agents starting and ending — it keeps the
 * running critical steps, answers whether a model call may start under a budget K, and writes
 * the spec §5 stages as run. A sub-agent that starts after some of its turn's sub-agents ended
 * gets the `wait_steps` of the as-run rule ({@link asRunWaitSteps}): the heaviest chain of those.
 *
 * @module
 */
import { ParlInputError, requireNonNegative } from './errors.js';
import type { StageRecord, SubAgentEntry } from './records.js';

/** One stage of a metered agent: its model call's steps and the sub-agents launched in it. */
interface MeterStage {
  readonly main: number;
  readonly group: AgentNode[];
}

/**
 * An agent the meter follows: the orchestrator ({@link CriticalStepsMeter.root}) or a sub-agent
 * ({@link CriticalStepsMeter.startSubAgent}). Read its state here; change it through the meter.
 */
export interface MeteredAgent {
  /** The agent that launched it; undefined for the root. */
  readonly parent: MeteredAgent | undefined;
  /** Steps of its turn that elapsed before it started (spec §2 `wait_steps`); 0 for the root and for one that started with its group. */
  readonly wait_steps: number;
  /** Its model calls so far (its steps; for an agent that launched sub-agents, its main steps). */
  readonly steps: number;
  /** True from its start until it ends (the root always runs). */
  readonly running: boolean;
  /** Whether it finished its subtask; false until it ends. */
  readonly finished: boolean;
  /** Its own critical steps so far: Σ over its stages of main + max (wait_steps + critical steps) of the group. */
  readonly criticalSteps: number;
}

/** The meter's own record of an agent: what {@link MeteredAgent} shows, and its stages. */
class AgentNode implements MeteredAgent {
  readonly stagesRun: MeterStage[] = [];
  stepCount = 0;
  isRunning = true;
  isFinished = false;

  constructor(
    readonly parent: AgentNode | undefined,
    readonly wait_steps: number,
  ) {}

  get steps(): number {
    return this.stepCount;
  }

  get running(): boolean {
    return this.isRunning;
  }

  get finished(): boolean {
    return this.isFinished;
  }

  get criticalSteps(): number {
    let critical = 0;
    for (const stage of this.stagesRun) {
      let stageMax = 0;
      for (const sub of stage.group) {
        const s = sub.wait_steps + sub.criticalSteps;
        if (s > stageMax) stageMax = s;
      }
      critical += stage.main + stageMax;
    }
    return critical;
  }

  /** The heaviest chain of its current stage's sub-agents that have ended: a sub-agent starting now waits this long. */
  readyWait(): number {
    const stage = this.stagesRun[this.stagesRun.length - 1];
    let heaviest = 0;
    for (const sub of stage?.group ?? []) {
      if (sub.isRunning) continue;
      const chain = sub.wait_steps + sub.criticalSteps;
      if (chain > heaviest) heaviest = chain;
    }
    return heaviest;
  }
}

/** A model call about to start: `'step'` of `agent` (its next stage), or the first call of a sub-agent about to `'start'` under `parent`. */
export type MeteredCall =
  | {
      /** A model call of an agent that runs. */
      readonly kind: 'step';
      /** The agent making it. */
      readonly agent: MeteredAgent;
      /** Its steps (default 1). */
      readonly steps?: number;
    }
  | {
      /** The first model call of a sub-agent that would start now. */
      readonly kind: 'start';
      /** The agent that would launch it, in its current stage. */
      readonly parent: MeteredAgent;
    };

/**
 * Critical steps of an episode as it runs (spec §2, §10).
 *
 * - {@link CriticalStepsMeter.step}: an agent starts a model call: one step, opening its next
 *   stage (for the orchestrator, its next turn; the sub-agents it launches next are that stage's
 *   group).
 * - {@link CriticalStepsMeter.startSubAgent} / {@link CriticalStepsMeter.endSubAgent}: a sub-agent
 *   starts in its parent's current stage, with `wait_steps` = the heaviest chain of that stage's
 *   sub-agents that have already ended (0 when none has: it started with its group); it ends.
 * - {@link CriticalStepsMeter.criticalSteps}: the running critical steps of the whole record;
 *   {@link CriticalStepsMeter.fits}: whether a model call may start without taking them past K.
 * - {@link CriticalStepsMeter.stages}: the spec §5 stages as run, sub-agents as
 *   `{steps, finished, wait_steps?}` (`wait_steps` written when > 0), or `{stages, finished}` for
 *   one that launched sub-agents of its own (spec §5.2). `criticalSteps(meter.stages())` equals
 *   the meter's running figure.
 *
 * @example
 * ```ts
 * const meter = new CriticalStepsMeter();
 * meter.step();                          // the orchestrator's first call: 1
 * const a = meter.startSubAgent();
 * const b = meter.startSubAgent();       // a and b launched together, one slot each
 * meter.step(a); meter.step(a); meter.endSubAgent(a, true);
 * const c = meter.startSubAgent();       // c takes a's slot: it waited 2 steps
 * meter.step(b); meter.endSubAgent(b, true);
 * meter.step(c); meter.endSubAgent(c, true);
 * meter.criticalSteps;                   // 4
 * meter.fits(4, { kind: 'step', agent: meter.root }); // false
 * meter.stages()[0].sub_steps[2].wait_steps; // 2
 * ```
 */
export class CriticalStepsMeter {
  private readonly rootNode = new AgentNode(undefined, 0);

  /** The orchestrator. */
  get root(): MeteredAgent {
    return this.rootNode;
  }

  /** The running critical steps of the whole record. */
  get criticalSteps(): number {
    return this.rootNode.criticalSteps;
  }

  /** The meter's node of `agent`: one of this meter's agents. */
  private node(agent: MeteredAgent, field: string): AgentNode {
    let top: AgentNode | undefined = agent instanceof AgentNode ? agent : undefined;
    while (top?.parent !== undefined) top = top.parent;
    if (top !== this.rootNode) throw new ParlInputError(field, 'an agent of another meter', "an agent of this meter (its root, or a sub-agent it started)");
    return agent as AgentNode;
  }

  /**
   * `agent` (default: the orchestrator) starts a model call of `steps` steps (default 1),
   * opening its next stage.
   *
   * @throws {@link ParlInputError} for steps that are negative or not finite, or an agent that has ended
   */
  step(agent: MeteredAgent = this.rootNode, steps = 1): void {
    requireNonNegative(steps, 'steps');
    const node = this.node(agent, 'agent');
    if (!node.isRunning) throw new ParlInputError('agent', 'a sub-agent that has ended', 'a running agent (a model call cannot start after its agent ended)');
    node.stagesRun.push({ main: steps, group: [] });
    node.stepCount += steps;
  }

  /**
   * A sub-agent of `parent` (default: the orchestrator) starts now, in `parent`'s current stage.
   * Its `wait_steps` is the heaviest chain of that stage's sub-agents that have already ended.
   *
   * @throws {@link ParlInputError} when `parent` has made no model call yet (no stage to join) or has ended
   */
  startSubAgent(parent: MeteredAgent = this.rootNode): MeteredAgent {
    const node = this.node(parent, 'parent');
    const stage = node.stagesRun[node.stagesRun.length - 1];
    if (stage === undefined) throw new ParlInputError('parent', 'an agent without a model call', 'an agent that made a model call (a sub-agent joins the stage its call opened)');
    if (!node.isRunning) throw new ParlInputError('parent', 'a sub-agent that has ended', 'a running agent');
    const sub = new AgentNode(node, node.readyWait());
    stage.group.push(sub);
    return sub;
  }

  /** `agent` ends; `finished` says whether it finished its subtask. Ending it twice changes nothing. */
  endSubAgent(agent: MeteredAgent, finished: boolean): void {
    const node = this.node(agent, 'agent');
    if (node === this.rootNode || !node.isRunning) return;
    node.isRunning = false;
    node.isFinished = finished;
  }

  /**
   * The running critical steps as if `next` started now: a model call of a running agent, or the
   * first call of a sub-agent about to start (with the wait it would get).
   */
  criticalStepsIf(next: MeteredCall): number {
    if (next.kind === 'step') {
      const steps = next.steps ?? 1;
      requireNonNegative(steps, 'steps');
      const node = this.node(next.agent, 'agent');
      node.stagesRun.push({ main: steps, group: [] });
      try {
        return this.rootNode.criticalSteps;
      } finally {
        node.stagesRun.pop();
      }
    }
    const parent = this.node(next.parent, 'parent');
    const stage = parent.stagesRun[parent.stagesRun.length - 1];
    if (stage === undefined) return this.rootNode.criticalSteps;
    const sub = new AgentNode(parent, parent.readyWait());
    sub.stagesRun.push({ main: 1, group: [] });
    stage.group.push(sub);
    try {
      return this.rootNode.criticalSteps;
    } finally {
      stage.group.pop();
    }
  }

  /**
   * May `next` start under a critical-step budget K (spec §2, §10)? True when the running
   * critical steps, with `next` started, stay ≤ K; without `next`, whether they are ≤ K now.
   */
  fits(budget: number, next?: MeteredCall): boolean {
    requireNonNegative(budget, 'budget');
    return (next === undefined ? this.criticalSteps : this.criticalStepsIf(next)) <= budget;
  }

  /** The spec §5 stages of the orchestrator as run so far. */
  stages(): StageRecord[] {
    return stagesOfAgent(this.rootNode);
  }
}

function stagesOfAgent(agent: AgentNode): StageRecord[] {
  return agent.stagesRun.map((stage) => ({ main_steps: stage.main, sub_steps: stage.group.map(entryOf) }));
}

/** A sub-agent's record entry: `{steps, finished}`, or `{stages, finished}` once it launched sub-agents (spec §5.2); `wait_steps` when it waited. */
function entryOf(sub: AgentNode): SubAgentEntry {
  const wait = sub.wait_steps > 0 ? { wait_steps: sub.wait_steps } : {};
  if (sub.stagesRun.some((s) => s.group.length > 0)) return { stages: stagesOfAgent(sub), finished: sub.isFinished, ...wait };
  return { steps: sub.stepCount, finished: sub.isFinished, ...wait };
}
