/**
 * LangGraph's scenarios (./langgraph-scenarios.ts) traced by the real `langsmith` SDK: LangChain's
 * `LangChainTracer` on a `langsmith` `Client` whose `apiUrl` is a loopback stand-in for the
 * LangSmith API (./langsmith-loopback.ts) with a dummy key. Two fixtures per scenario:
 * - `langsmith/`: the runs the SDK posted, each run's create and update merged by id as LangSmith's
 *   ingest merges them (the SDK sends them merged itself when both fall in one batch), one run per
 *   line in `dotted_order` (start) order: the runs as stored;
 * - `langsmith-ingest/`: the run operations as posted, one per line in the order sent: a run whose
 *   end fell in a later batch is there twice, its create without `end_time` and its update.
 */
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { Client } from 'langsmith';
import { langGraphScenarios } from './langgraph-scenarios.js';
import { startLangSmithLoopback, type PostedRunOperation } from './langsmith-loopback.js';
import { writeFixture } from './write-fixture.js';

/**
 * The runs of `operations` with each run's later operations spread over its earlier ones (a patch
 * carries the end time, outputs and error of the run its post opened), in `dotted_order` order.
 */
export function mergeRunOperations(operations: readonly PostedRunOperation[]): Record<string, unknown>[] {
  const runs = new Map<string, Record<string, unknown>>();
  for (const { run } of operations) {
    const id = run['id'];
    if (typeof id !== 'string') throw new Error(`a posted run without an id: ${JSON.stringify(run).slice(0, 200)}`);
    runs.set(id, { ...(runs.get(id) ?? {}), ...run });
  }
  const order = (r: Record<string, unknown>): string => String(r['dotted_order']);
  return [...runs.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/**
 * The run with its `error` cut to the message: LangChain's tracer sends `<message>\n\n<stack>`,
 * and the stack names this machine's paths.
 */
function withoutStack(run: Record<string, unknown>): Record<string, unknown> {
  const error = run['error'];
  return typeof error === 'string' && error.includes('\n\n') ? { ...run, error: error.slice(0, error.indexOf('\n\n')) } : run;
}

/** Every scenario, under langsmith/. */
export async function generateLangSmith(): Promise<void> {
  const api = await startLangSmithLoopback();
  try {
    for (const scenario of langGraphScenarios()) {
      const client = new Client({ apiUrl: api.url, apiKey: 'lsv2_loopback_dummy_key' });
      const tracer = new LangChainTracer({ client, projectName: 'parl-fixtures' });
      try {
        await scenario.run({ callbacks: [tracer] });
      } catch (err) {
        console.error(`  (run ended in error as scripted: ${(err as Error).message})`);
      }
      await client.awaitPendingTraceBatches();
      const operations = api.take();
      const runs = mergeRunOperations(operations);
      const unended = runs.filter((r) => r['end_time'] === undefined || r['end_time'] === null);
      if (unended.length > 0) throw new Error(`${scenario.name}: ${unended.length} run(s) posted but never updated with an end time`);
      console.error(`  ${scenario.name}: ${operations.length} operations posted, ${runs.length} runs`);
      writeFixture('langsmith', scenario.name, runs.map(withoutStack));
      writeFixture('langsmith-ingest', scenario.name, operations.map((op) => withoutStack(op.run)));
    }
  } finally {
    await api.close();
  }
}
