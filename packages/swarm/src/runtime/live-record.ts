/**
 * The spec §5 stages of an episode, built while it runs (spec §10's accounting), by
 * `@parl/core`'s {@link CriticalStepsMeter}: the swarm derives no PARL number itself.
 *
 * One orchestrator model call opens a turn (one main step). The sub-agents its `assign_task`
 * calls launch form that turn's group. A sub-agent that starts only when an earlier one of its
 * turn has ended — it waited for a free slot under `concurrency` — gets `wait_steps` (spec §2, §7:
 * the heaviest chain of its turn's sub-agents that ended before it started), so the running
 * critical steps, and the budget check on them, count the wait. A sub-agent's steps are its model
 * calls, counted when each call starts.
 *
 * @module
 */
import { CriticalStepsMeter, type MeteredAgent, type StageRecord } from '@parl/core';

/**
 * One sub-agent's place in the record. Its steps grow through the meter: `slot.steps++` (or
 * {@link LiveRecord.step}) is the start of one model call.
 */
export class SubAgentSlot {
  /** @internal */
  constructor(
    private readonly meter: CriticalStepsMeter,
    /** The meter's view of this sub-agent. */
    readonly agent: MeteredAgent,
  ) {}

  /** Model calls started so far. */
  get steps(): number {
    return this.agent.steps;
  }

  /** Start model calls: the new value must be the old one plus the calls started. */
  set steps(value: number) {
    const added = value - this.agent.steps;
    if (!(added >= 0)) throw new RangeError(`a sub-agent's steps only grow (from ${this.agent.steps} to ${value})`);
    for (let i = 0; i < added; i++) this.meter.step(this.agent);
  }

  /** Whether it is running (started and not yet ended). */
  get running(): boolean {
    return this.agent.running;
  }

  /** Whether it finished its task; set when it ends. */
  get finished(): boolean {
    return this.agent.finished;
  }

  /** Steps of its turn that elapsed before it started (spec §2); 0 when it started with its group. */
  get waitSteps(): number {
    return this.agent.wait_steps;
  }
}

/** The live record of one episode's stages. */
export class LiveRecord {
  private readonly meter = new CriticalStepsMeter();

  /** The orchestrator's model calls so far (its main steps). */
  get mainSteps(): number {
    return this.meter.root.steps;
  }

  /** Open a turn: the orchestrator starts a model call. */
  openTurn(): void {
    this.meter.step();
  }

  /**
   * Start a sub-agent in the current turn (of the orchestrator, or of `parent` when a sub-agent
   * launches sub-agents of its own, spec §5.2): call it when the sub-agent takes its slot, so that
   * a sub-agent that waited for one gets its `wait_steps`.
   */
  startSubAgent(parent?: SubAgentSlot): SubAgentSlot {
    if (this.meter.root.steps === 0 && parent === undefined) throw new Error('a sub-agent cannot start before the orchestrator\'s first model call');
    return new SubAgentSlot(this.meter, this.meter.startSubAgent(parent?.agent ?? this.meter.root));
  }

  /** A sub-agent starts a model call (the same as `slot.steps++`). */
  step(slot: SubAgentSlot): void {
    this.meter.step(slot.agent);
  }

  /** End a sub-agent. */
  endSubAgent(slot: SubAgentSlot, finished: boolean): void {
    this.meter.endSubAgent(slot.agent, finished);
  }

  /**
   * The running critical steps (spec §2 over the stages so far, waits included), optionally as if
   * one more model call started: the orchestrator's (`'main'`), a running sub-agent's (its slot),
   * or the first call of a sub-agent about to start in the current turn (`'new-sub'`, with the wait
   * it would get) — of the orchestrator, or of `parent` when a sub-agent launches it.
   */
  criticalSteps(next?: 'main' | 'new-sub' | SubAgentSlot, parent?: SubAgentSlot): number {
    if (next === undefined) return this.meter.criticalSteps;
    if (next === 'main') return this.meter.criticalStepsIf({ kind: 'step', agent: this.meter.root });
    if (next === 'new-sub') return this.meter.criticalStepsIf({ kind: 'start', parent: parent?.agent ?? this.meter.root });
    return this.meter.criticalStepsIf({ kind: 'step', agent: next.agent });
  }

  /** The stages as run: one per turn, sub-agents as `{steps, finished}` with `wait_steps` where they waited. */
  stages(): StageRecord[] {
    return this.meter.stages();
  }
}
