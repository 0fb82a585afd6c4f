/**
 * The one place the runtime touches the live record: an agent that delegates (the orchestrator,
 * or with `depth` > 1 a sub-agent) has a frame — its own live record of turns and waves, its
 * sub-agent definitions, and its place in its parent's record. A nested sub-agent's entry in its
 * parent's stage counts its own critical steps (spec §5.2), kept current as its subtree runs, so
 * the budget is held over the whole tree: a model call anywhere is checked against the critical
 * steps of the whole record as if it had started.
 *
 * @module
 */
import { LiveRecord, type SubAgentSlot } from './live-record.js';

/** Where a nested frame sits: its parent's frame and its own slot there. */
interface FramePlace {
  readonly frame: AgentFrame;
  readonly slot: SubAgentSlot;
}

/** What the next model call would be, in a frame: the agent's own, a new sub-agent's first, or a running sub-agent's. */
export type NextCall = 'main' | 'new-sub' | SubAgentSlot;

/** One delegating agent's part of the record. */
export class AgentFrame {
  /** Its sub-agent definitions: name → system prompt. */
  readonly definitions = new Map<string, string>();
  /** Its turns and waves. */
  private readonly live: LiveRecord;

  /**
   * @param depth - 0 for the orchestrator, d for a sub-agent at depth d
   * @param place - its parent's frame and its slot there (none for the orchestrator)
   * @param live - its live record (the orchestrator's is the episode's)
   */
  constructor(
    readonly depth: number,
    private readonly place: FramePlace | undefined = undefined,
    live: LiveRecord = new LiveRecord(),
  ) {
    this.live = live;
    if (place !== undefined) place.slot.nested = live;
  }

  /** Its own model calls so far. */
  get ownCalls(): number {
    return this.live.mainSteps;
  }

  /** Its own model call starts: a turn opens. */
  openTurn(): void {
    this.live.openTurn();
    this.sync();
  }

  /** A sub-agent of its current turn starts. */
  startSubAgent(): SubAgentSlot {
    const slot = this.live.startSubAgent();
    this.sync();
    return slot;
  }

  /** A (non-delegating) sub-agent of its current turn starts a model call. */
  countCall(slot: SubAgentSlot): void {
    slot.steps++;
    this.sync();
  }

  /** A sub-agent of its current turn ends. */
  endSubAgent(slot: SubAgentSlot, finished: boolean): void {
    this.live.endSubAgent(slot, finished);
    this.sync();
  }

  /** The critical steps of the whole record, as if `next` started in this frame (spec §2 over every level). */
  criticalStepsIf(next?: NextCall): number {
    let value = this.live.criticalSteps(next);
    const saved: [SubAgentSlot, number][] = [];
    for (let up = this.place; up !== undefined; up = up.frame.place) {
      saved.push([up.slot, up.slot.steps]);
      up.slot.steps = value;
      value = up.frame.live.criticalSteps();
    }
    for (const [slot, steps] of saved) slot.steps = steps;
    return value;
  }

  /** Whether `next` keeps the whole record's critical steps within `budget` (always, without one). */
  fits(next: NextCall, budget: number | undefined): boolean {
    return budget === undefined || this.criticalStepsIf(next) <= budget;
  }

  /** Keep each ancestor's entry for this subtree at the subtree's critical steps. */
  private sync(): void {
    let frame: AgentFrame = this;
    for (let up = frame.place; up !== undefined; up = frame.place) {
      up.slot.steps = frame.live.criticalSteps();
      frame = up.frame;
    }
  }
}
