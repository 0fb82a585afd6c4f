// The swarm benchmarks' endpoint, run as its own process (so a benchmark's CPU time is the
// client's alone): test-support's one scripted chat endpoint, answering every chat completion at
// once from the request itself:
//   the orchestrator (its tools include assign_task): first one create_subagent and SUBAGENTS
//     assign_task calls, then a text answer;
//   a sub-agent: TOOL_CALLS[i] calls of `open` on its i-th call, then a text answer.
// Prints its base URL as its first stdout line.
//
//   tsx fast-endpoint.ts SUBAGENTS TOOL_CALLS   (TOOL_CALLS: comma-separated, e.g. 7,6)
import { startChatEndpoint, type ChatReply, type ChatRequest } from '@parl/test-support/chat-endpoint';

const subagents = Number(process.argv[2] ?? 300);
const toolCalls = (process.argv[3] ?? '7,6').split(',').map(Number);

function reply(request: ChatRequest): ChatReply {
  const assistantTurns = request.messages.filter((m) => m.role === 'assistant').length;
  if ((request.tools ?? []).some((t) => t.function.name === 'assign_task')) {
    if (assistantTurns > 0) return { text: 'final answer', usage: { prompt: 1, completion: 1 } };
    return {
      toolCalls: [
        ['create_subagent', { name: 'w', system_prompt: 'You look things up.' }],
        ...Array.from({ length: subagents }, (_, i) => ['assign_task', { agent: 'w', prompt: `task ${i}` }] as const),
      ],
    };
  }
  const n = toolCalls[assistantTurns] ?? 0;
  if (n === 0) return { text: 'x | color | teal', usage: { prompt: 1, completion: 1 } };
  return { toolCalls: Array.from({ length: n }, (_, i) => ['open', { id: `doc-${1 + (i % 3)}` }] as const) };
}

const endpoint = await startChatEndpoint(reply, { forget: true });
process.stdout.write(`${endpoint.baseURL}\n`);
process.on('SIGTERM', () => process.exit(0));
