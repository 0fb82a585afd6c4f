/**
 * What the loops of one episode share: its clock and spans, the live record, the stop signal,
 * the sub-agent definitions and pool, the tool-call executor and the agents' toolboxes.
 *
 * @module
 */
import type { ToolSet } from 'ai';
import type { SwarmTask } from '../tasks/task.js';
import { MicrosecondClock } from '../telemetry/clock.js';
import { SwarmTelemetry } from '../telemetry/swarm-telemetry.js';
import { corpusProvider } from '../tools/corpus-provider.js';
import { ToolExecutor } from '../tools/tool-executor.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import { toolSetOf } from '../tools/tool-set.js';
import { toolboxOf, toolsOf, type Toolbox } from '../tools/toolbox.js';
import type { EpisodeSettings } from './config.js';
import { AgentFrame, type NextCall } from './agent-frame.js';
import { LiveRecord } from './live-record.js';
import { modelName } from './model-call.js';
import { SubAgentPool } from './subagent-pool.js';
import type { SubagentTranscript } from './swarm-record.js';

/** An agent's tools: the executor's toolbox and the AI SDK tool set the model is offered. */
export interface AgentTools {
  readonly box: Toolbox;
  readonly set: ToolSet;
}

/** The tools of some providers, for one agent. */
export function agentToolsOf(providers: readonly ToolProvider[]): AgentTools {
  const box = toolboxOf(providers);
  return { box, set: toolSetOf(toolsOf(box)) };
}

/** The shared state of one episode. */
export class EpisodeState {
  /** The episode clock (span times and wave order). */
  readonly clock = new MicrosecondClock();
  /** The episode's spans. */
  readonly telemetry: SwarmTelemetry;
  /** The spec §5 stages, built as the episode runs. */
  readonly live = new LiveRecord();
  /** Aborted when the episode stops (the budget is spent, or the orchestrator failed). */
  readonly controller = new AbortController();
  /** The orchestrator's frame (the top of the record). */
  readonly root: AgentFrame;
  /** Sub-agent definitions so far, over the whole tree (bounded by `maxSubagents`). */
  defined = 0;
  /** The final messages of the sub-agents that finished (what `truncate` scores). */
  readonly finishedAnswers: string[] = [];
  /** The one tool-call executor. */
  readonly executor: ToolExecutor;
  /** Places for running sub-agents. */
  readonly pool: SubAgentPool;
  /** The task's tools (its corpus, then the run's providers), for whichever agents get them. */
  readonly taskProviders: readonly ToolProvider[];
  /** The task's providers the sub-agents get (per `toolsFor`). */
  readonly subagentProviders: readonly ToolProvider[];
  /** The sub-agents' tools (of those that do not delegate). */
  readonly subagentTools: AgentTools;
  /** The sub-agents' transcripts, as each run ends (kept with `tokenTrajectories`: the line's `subagent_messages`). */
  readonly subagentTranscripts: SubagentTranscript[] = [];
  /** Whether the budget ran out. */
  budgetExhausted = false;
  /** Sub-agents started in the orchestrator's current turn (for its `stage-closed` event). */
  turnSubagents = 0;

  /**
   * @param task - the task
   * @param settings - the episode's settings
   */
  constructor(
    readonly task: SwarmTask,
    readonly settings: Required<EpisodeSettings>,
  ) {
    this.root = new AgentFrame(0, undefined, this.live);
    this.telemetry = new SwarmTelemetry(this.clock, settings.tracer, modelName(settings.subagentModel));
    this.executor = new ToolExecutor(this.telemetry, settings.toolTimeoutMs);
    this.pool = new SubAgentPool(settings.concurrency);
    this.taskProviders = [corpusProvider(task.tools), ...settings.toolProviders];
    this.subagentProviders = settings.toolsFor === 'orchestrator' ? [] : this.taskProviders;
    this.subagentTools = agentToolsOf(this.subagentProviders);
  }

  /** The episode's stop signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stop the episode: the budget is spent; running sub-agents' calls are aborted. */
  exhaust(): void {
    this.budgetExhausted = true;
    this.controller.abort();
  }

  /** Whether one more model call in `frame` keeps the whole record's critical steps within the budget. */
  fits(frame: AgentFrame, next: NextCall): boolean {
    return frame.fits(next, this.settings.budget);
  }
}
