/**
 * One reply's tool calls, through the tool-call executor: first every call but the `assign_task`
 * ones (so a sub-agent defined in the same reply can be assigned), started in order, then the
 * `assign_task` calls, which run concurrently as the sub-agent pool allows. Results come back in
 * call order.
 *
 * @module
 */
import type { OpenSpan } from '../telemetry/swarm-telemetry.js';
import type { Lease } from '../tools/semaphore.js';
import type { ToolCall } from '../tools/tool-call.js';
import type { ToolResult } from '../tools/tool-executor.js';
import { toolNamed, type Toolbox } from '../tools/toolbox.js';
import type { EpisodeState } from './episode-state.js';

/**
 * Run the calls of one reply with the tools of `box`, under `parent`'s span. A sub-agent that
 * assigns tasks of its own gives back its place in the pool (`lease`) while they run.
 */
export async function dispatchCalls(state: EpisodeState, calls: readonly ToolCall[], box: Toolbox, parent: OpenSpan, lease?: Lease): Promise<ToolResult[]> {
  const delegates = toolNamed(box, 'assign_task') !== undefined;
  const isAssignment = (call: ToolCall): boolean => delegates && call.name === 'assign_task' && call.invalid === undefined;
  const results: (ToolResult | undefined)[] = new Array(calls.length);
  const run = (call: ToolCall, i: number): Promise<void> =>
    state.executor.execute(call, box, parent, state.signal).then((r) => {
      results[i] = r;
    });
  await Promise.all(calls.map((call, i) => (isAssignment(call) ? undefined : run(call, i))));
  const assign = (): Promise<unknown> => Promise.all(calls.map((call, i) => (isAssignment(call) ? run(call, i) : undefined)));
  if (lease !== undefined && calls.some(isAssignment)) await lease.suspend(assign);
  else await assign();
  return results as ToolResult[];
}
