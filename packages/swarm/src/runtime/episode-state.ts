/**
 * What the agents of one episode share: its clock and spans, the live record, the stop and
 * cancel signals, the model callers, the sub-agent definitions and pool, the tool-call executor
 * and the agents' toolboxes.
 *
 * @module
 */
import type { SwarmTask } from '../tasks/task.js';
import { MicrosecondClock } from '../telemetry/clock.js';
import { SwarmTelemetry } from '../telemetry/swarm-telemetry.js';
import { corpusProvider } from '../tools/corpus-provider.js';
import { ToolExecutor } from '../tools/tool-executor.js';
import type { ToolProvider } from '../tools/tool-provider.js';
import type { EpisodeSettings } from './config.js';
import { AgentFrame, type NextCall } from './agent-frame.js';
import { agentToolsOf, type AgentTools } from './agent-tools.js';
import { LiveRecord } from './live-record.js';
import type { ModelCaller } from './model-caller.js';
import { chatModelCaller, modelName } from './model-call.js';
import { tokenInCaller } from './token-in-caller.js';
import { SubAgentPool } from './subagent-pool.js';
import type { SubagentTranscript } from './swarm-record.js';

/** The shared state of one episode. */
export class EpisodeState {
  /** The episode clock (span times and wave order). */
  readonly clock = new MicrosecondClock();
  /** The episode's spans. */
  readonly telemetry: SwarmTelemetry;
  /** The spec §5 stages, built as the episode runs. */
  readonly live = new LiveRecord();
  /** Aborted when the episode stops (the budget is spent, the orchestrator failed, or the episode was cancelled). */
  readonly controller = new AbortController();
  /** Aborted when the episode is cancelled (the settings' `signal`; never, without one). */
  readonly cancel: AbortSignal;
  /** The orchestrator's model calls. */
  readonly orchestratorCaller: ModelCaller;
  /** The sub-agents' model calls. */
  readonly subagentCaller: ModelCaller;
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
    this.orchestratorCaller =
      settings.tokenIn === undefined ? chatModelCaller(settings.orchestrator, { retry: settings.retry, tokenDetails: settings.tokenDetails }) : tokenInCaller(settings.tokenIn, settings.retry);
    this.subagentCaller = chatModelCaller(settings.subagentModel, { retry: settings.retry });
    this.cancel = settings.signal;
    if (this.cancel.aborted) this.controller.abort();
    else this.cancel.addEventListener('abort', this.stopOnCancel, { once: true });
  }

  private readonly stopOnCancel = (): void => this.controller.abort();

  /** The episode is over: a long-lived cancel signal no longer holds on to it. */
  close(): void {
    this.cancel.removeEventListener('abort', this.stopOnCancel);
  }

  /** Throw the cancel signal's reason when the episode was cancelled (spec §10.6: nothing is written for it). */
  throwIfCancelled(): void {
    this.cancel.throwIfAborted();
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
