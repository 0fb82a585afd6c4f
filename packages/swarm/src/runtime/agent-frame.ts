/**
 * The one place the runtime touches the live record: an agent that delegates (the orchestrator,
 * or with `depth` > 1 a sub-agent) has a frame — its sub-agent definitions and its place in the
 * episode's one live record (core's critical-steps meter, which nests entries as spec §5.2 says and
 * gives sub-agents that waited for a slot their `wait_steps`), so the budget is held over the whole
 * tree: a model call anywhere is checked against the critical steps of the whole record as if it
 * had started.
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
  /** The episode's live record (one meter for the whole tree). */
  private readonly live: LiveRecord;

  /**
   * @param depth - 0 for the orchestrator, d for a sub-agent at depth d
   * @param place - its parent's frame and its slot there (none for the orchestrator)
   * @param live - the episode's live record (a nested frame shares its parent's)
   */
  constructor(
    readonly depth: number,
    private readonly place: FramePlace | undefined = undefined,
    live?: LiveRecord,
  ) {
    this.live = live ?? place?.frame.live ?? new LiveRecord();
  }

  /** Its own model calls so far. */
  get ownCalls(): number {
    return this.place === undefined ? this.live.mainSteps : this.place.slot.steps;
  }

  /** Its own model call starts: its next turn opens (spec §5.2 for a nested one). */
  openTurn(): void {
    if (this.place === undefined) this.live.openTurn();
    else this.live.step(this.place.slot);
  }

  /** A sub-agent of its current turn starts (with the wait it had, spec §2). */
  startSubAgent(): SubAgentSlot {
    return this.live.startSubAgent(this.place?.slot);
  }

  /** A (non-delegating) sub-agent of its current turn starts a model call. */
  countCall(slot: SubAgentSlot): void {
    this.live.step(slot);
  }

  /** A sub-agent of its current turn ends. */
  endSubAgent(slot: SubAgentSlot, finished: boolean): void {
    this.live.endSubAgent(slot, finished);
  }

  /** The critical steps of the whole record, as if `next` started in this frame (core's meter, over every level). */
  criticalStepsIf(next?: NextCall): number {
    if (next === undefined) return this.live.criticalSteps();
    if (next === 'main') return this.place === undefined ? this.live.criticalSteps('main') : this.live.criticalSteps(this.place.slot);
    if (next === 'new-sub') return this.live.criticalSteps('new-sub', this.place?.slot);
    return this.live.criticalSteps(next);
  }

  /** Whether `next` keeps the whole record's critical steps within `budget` (always, without one). */
  fits(next: NextCall, budget: number | undefined): boolean {
    return budget === undefined || this.criticalStepsIf(next) <= budget;
  }
}
