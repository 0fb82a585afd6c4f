// A fast OpenAI-compatible endpoint for the swarm benchmarks, run as its own process (so the
// benchmark's CPU time is the client's alone). It answers every chat completion at once, from the
// request itself:
//   the orchestrator (its tools include assign_task): first one create_subagent and SUBAGENTS
//     assign_task calls, then a text answer;
//   a sub-agent: TOOL_CALLS[i] calls of `open` on its i-th call, then a text answer.
// Prints its base URL as its first stdout line.
//
//   node fast-endpoint.mjs SUBAGENTS TOOL_CALLS   (TOOL_CALLS: comma-separated, e.g. 7,6)
import { createServer } from 'node:http';

const subagents = Number(process.argv[2] ?? 300);
const toolCalls = (process.argv[3] ?? '7,6').split(',').map(Number);

function reply(body) {
  const names = (body.tools ?? []).map((t) => t.function.name);
  const assistantTurns = body.messages.filter((m) => m.role === 'assistant').length;
  let message;
  if (names.includes('assign_task')) {
    message = assistantTurns === 0
      ? { role: 'assistant', content: null, tool_calls: [
          { id: 'c', type: 'function', function: { name: 'create_subagent', arguments: '{"name":"w","system_prompt":"You look things up."}' } },
          ...Array.from({ length: subagents }, (_, i) => ({ id: `a${i}`, type: 'function', function: { name: 'assign_task', arguments: `{"agent":"w","prompt":"task ${i}"}` } })),
        ] }
      : { role: 'assistant', content: 'final answer' };
  } else {
    const n = toolCalls[assistantTurns] ?? 0;
    message = n === 0
      ? { role: 'assistant', content: 'x | color | teal' }
      : { role: 'assistant', content: null, tool_calls: Array.from({ length: n }, (_, i) => ({ id: `t${assistantTurns}-${i}`, type: 'function', function: { name: 'open', arguments: `{"id":"doc-${1 + (i % 3)}"}` } })) };
  }
  return { id: 'r', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const out = JSON.stringify(reply(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/v1\n`));
process.on('SIGTERM', () => process.exit(0));
