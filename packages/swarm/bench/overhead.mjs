// The swarm runtime's own overhead per model call, against a no-op endpoint on loopback.
//
//   pnpm --filter @parl/swarm build && node packages/swarm/bench/overhead.mjs [episodes]
//
// A node:http server answers every chat completion at once (the orchestrator: one create_subagent
// and four assign_task calls, then a text answer; a sub-agent: a text answer). Three clients make
// the same number of model calls in the same run:
//   fetch        a raw POST of the first orchestrator request's body (the floor: HTTP + JSON)
//   generateText the AI SDK through @ai-sdk/openai-compatible, one call each
//   swarm        runEpisode: 6 model calls per episode (2 orchestrator, 4 sub-agents), one sub-agent
//                at a time, then all four at once (wall time per call then shares the waits)
// and the table gives each one's time per model call and its ratio to fetch's. Every client is
// warmed up first, then the clients take turns in ROUNDS rounds (a rotated order each round), so
// none is timed cold or alone at the start (timing fetch first, cold, made it look twice as slow).
import { createServer } from 'node:http';
import { generateText } from 'ai';
import { DEFAULT_RETRY, endpointModel, generateSuite, LIMIT_PRESETS, runEpisode } from '../dist/index.js';

const episodes = Number(process.argv[2] ?? 200);
let calls = 0;
function reply(body) {
  const names = (body.tools ?? []).map((t) => t.function.name);
  const hasResults = body.messages.some((m) => m.role === 'tool');
  const message = names.includes('assign_task') && !hasResults
    ? { role: 'assistant', content: null, tool_calls: [
        { id: 'c0', type: 'function', function: { name: 'create_subagent', arguments: '{"name":"a","system_prompt":"s"}' } },
        ...[1, 2, 3, 4].map((i) => ({ id: `c${i}`, type: 'function', function: { name: 'assign_task', arguments: `{"agent":"a","prompt":"p${i}"}` } })),
      ] }
    : { role: 'assistant', content: 'x | color | teal' };
  return { id: 'r', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
}
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    calls++;
    const out = JSON.stringify(reply(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
const model = endpointModel(baseUrl, 'noop');
const settings = { orchestrator: model, subagentModel: model, concurrency: 8, limits: LIMIT_PRESETS.default, retry: DEFAULT_RETRY, trainingStep: 0 };
const tasks = generateSuite('wide', { tasks: 8, seed: 1 });

// The first orchestrator request, as the AI SDK sends it, for the fetch floor.
const probe = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'noop', messages: [{ role: 'user', content: tasks[0].prompt }] }) });
await probe.json();
const firstBody = JSON.stringify({ model: 'noop', messages: [{ role: 'system', content: 'x' }, { role: 'user', content: tasks[0].prompt }], tools: [], tool_choice: 'auto' });

const ROUNDS = 5;
const total = episodes * 6;
const clients = [
  ['fetch', total / ROUNDS, async () => { const r = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: firstBody }); await r.json(); }],
  ['generateText', total / ROUNDS, async () => { await generateText({ model, system: 'x', prompt: tasks[0].prompt, maxRetries: 0 }); }],
  ['swarm, concurrency 1', episodes / ROUNDS, async (i) => { await runEpisode(tasks[i % tasks.length], { ...settings, concurrency: 1 }); }],
  ['swarm, concurrency 8', episodes / ROUNDS, async (i) => { await runEpisode(tasks[i % tasks.length], settings); }],
];
// Warm every client up first.
for (const [, , fn] of clients) for (let i = 0; i < 20; i++) await fn(i);
const totals = new Map(clients.map(([label]) => [label, { label, calls: 0, ms: 0 }]));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < clients.length; k++) {
    const [label, n, fn] = clients[(k + round) % clients.length];
    const before = calls;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn(i);
    const row = totals.get(label);
    row.ms += performance.now() - t0;
    row.calls += calls - before;
  }
}
const rows = [...totals.values()];
server.close();
const floor = rows[0].ms / rows[0].calls;
console.log(`| client | model calls | ms per call | × fetch |`);
console.log(`| --- | --- | --- | --- |`);
for (const r of rows) console.log(`| ${r.label} | ${r.calls} | ${(r.ms / r.calls).toFixed(3)} | ${((r.ms / r.calls) / floor).toFixed(2)} |`);
