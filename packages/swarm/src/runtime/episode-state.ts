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
import { LiveRecord, type SubAgentSlot } from './live-record.js';
import { SubAgentPool } from './subagent-pool.js';

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
  /** Sub-agent definitions: name → system prompt. */
  readonly definitions = new Map<string, string>();
  /** The final messages of the sub-agents that finished (what `truncate` scores). */
  readonly finishedAnswers: string[] = [];
  /** The one tool-call executor. */
  readonly executor: ToolExecutor;
  /** Places for running sub-agents. */
  readonly pool: SubAgentPool;
  /** The task's tools (its corpus, then the run's providers), for whichever agents get them. */
  readonly taskProviders: readonly ToolProvider[];
  /** The sub-agents' tools. */
  readonly subagentTools: AgentTools;
  /** Whether the budget ran out. */
  budgetExhausted = false;

  /**
   * @param task - the task
   * @param settings - the episode's settings
   */
  constructor(
    readonly task: SwarmTask,
    readonly settings: Required<EpisodeSettings>,
  ) {
    this.telemetry = new SwarmTelemetry(this.clock, settings.tracer);
    this.executor = new ToolExecutor(this.telemetry, settings.toolTimeoutMs);
    this.pool = new SubAgentPool(settings.concurrency);
    this.taskProviders = [corpusProvider(task.tools), ...settings.toolProviders];
    this.subagentTools = agentToolsOf(settings.toolsFor === 'orchestrator' ? [] : this.taskProviders);
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

  /** Whether one more model call (the orchestrator's, a running sub-agent's, or a new sub-agent's first) keeps the critical steps within the budget. */
  fits(next: 'main' | 'new-sub' | SubAgentSlot): boolean {
    return this.settings.budget === undefined || this.live.criticalSteps(next) <= this.settings.budget;
  }
}
