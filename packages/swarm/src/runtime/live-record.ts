/**
 * The spec §5 stages of an episode, built while it runs (spec §10's accounting).
 *
 * One orchestrator model call opens a turn (one main step). The sub-agents its `assign_task`
 * calls launch form that turn's group, split into waves as run (spec §7): a sub-agent that starts
 * while none of the turn's earlier sub-agents is running opens a new wave, which becomes a stage
 * with `main_steps` 0. A sub-agent's steps are its model calls, counted when each call starts.
 *
 * @module
 */
import type { StageRecord, SubAgentEntry, SubAgentRun } from '@parl/core';

/** One sub-agent's place in the record. */
export class SubAgentSlot {
  /** Model calls started so far. */
  steps = 0;
  /** Whether it is running (started and not yet ended). */
  running = true;
  /** Whether it finished its task; set when it ends. */
  finished = false;
  /** With `depth` > 1: its own record, when it may launch sub-agents (its entry nests, spec §5.2, once it did; `steps` then holds its critical steps). */
  nested: LiveRecord | undefined = undefined;
}

interface Turn {
  readonly waves: SubAgentSlot[][];
  running: number;
}

/** The live record of one episode's stages. */
export class LiveRecord {
  private readonly turns: Turn[] = [];

  /** The orchestrator's model calls so far (its main steps). */
  get mainSteps(): number {
    return this.turns.length;
  }

  /** Open a turn: the orchestrator starts a model call. */
  openTurn(): void {
    this.turns.push({ waves: [], running: 0 });
  }

  /** Start a sub-agent in the current turn: it joins the running wave, or opens a new one when none of the turn's sub-agents is running. */
  startSubAgent(): SubAgentSlot {
    const turn = this.turns[this.turns.length - 1];
    if (turn === undefined) throw new Error('a sub-agent cannot start before the orchestrator\'s first model call');
    const slot = new SubAgentSlot();
    const wave = turn.waves[turn.waves.length - 1];
    if (wave === undefined || turn.running === 0) turn.waves.push([slot]);
    else wave.push(slot);
    turn.running++;
    return slot;
  }

  /** End a sub-agent of the current turn. */
  endSubAgent(slot: SubAgentSlot, finished: boolean): void {
    if (!slot.running) return;
    slot.running = false;
    slot.finished = finished;
    const turn = this.turns[this.turns.length - 1] as Turn;
    turn.running--;
  }

  /**
   * The running critical steps (spec §2 over the stages so far), optionally as if one more model
   * call started: the orchestrator's (`'main'`), a running sub-agent's (its slot), or the first
   * call of a sub-agent about to start in the current turn (`'new-sub'`).
   */
  criticalSteps(next?: 'main' | 'new-sub' | SubAgentSlot): number {
    let total = next === 'main' ? 1 : 0;
    this.turns.forEach((turn, t) => {
      total += 1;
      const last = t === this.turns.length - 1;
      turn.waves.forEach((wave, w) => {
        let max = 0;
        for (const slot of wave) {
          const steps = slot === next ? slot.steps + 1 : slot.steps;
          if (steps > max) max = steps;
        }
        // A new sub-agent joins the last wave while any of the turn's sub-agents runs.
        if (next === 'new-sub' && last && w === turn.waves.length - 1 && turn.running > 0) max = Math.max(max, 1);
        total += max;
      });
      if (next === 'new-sub' && last && turn.running === 0) total += 1;
    });
    return total;
  }

  /** The stages as run: one per wave (a turn's first wave carries its main step), or one with no group for a turn that launched none. */
  stages(): StageRecord[] {
    const stages: StageRecord[] = [];
    for (const turn of this.turns) {
      if (turn.waves.length === 0) {
        stages.push({ main_steps: 1, sub_steps: [] });
        continue;
      }
      turn.waves.forEach((wave, w) => {
        stages.push({ main_steps: w === 0 ? 1 : 0, sub_steps: wave.map((s): SubAgentEntry => entryOf(s)) });
      });
    }
    return stages;
  }
}

/** A sub-agent's entry: `{steps, finished}`, or `{stages, finished}` when it launched sub-agents of its own (spec §5.2). */
function entryOf(slot: SubAgentSlot): SubAgentEntry {
  if (slot.nested !== undefined) {
    const stages = slot.nested.stages();
    if (stages.some((st) => (st.sub_steps?.length ?? 0) > 0)) return { stages, finished: slot.finished };
  }
  return { steps: slot.steps, finished: slot.finished } satisfies SubAgentRun;
}
