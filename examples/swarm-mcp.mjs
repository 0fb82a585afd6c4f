// `parl swarm run` with tools from two MCP servers written with @modelcontextprotocol/sdk: the
// capitals server over stdio (parl starts it) and over streamable HTTP (started here). The
// orchestrator is a GGUF model file served on loopback by node-llama-cpp, or, with --scripted,
// the test support's scripted chat endpoint, which calls the server's `capital` tool and answers
// with what it returned (the model-free way to see the whole path: model → parl → MCP server →
// the record's transcript).
//
//   node swarm-mcp.mjs MODEL.gguf [TASKS]
//   node swarm-mcp.mjs --scripted [TASKS]
//
// For each record it prints the stop reason, critical steps, tool_errors and the tool results in
// its transcript (the `tool` messages). The two servers offer the same tool name (refused in one
// run, named), so each gets a run of its own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const [modelFile, tasks = '1'] = process.argv.slice(2);
if (modelFile === undefined) {
  console.error('usage: node swarm-mcp.mjs MODEL.gguf [TASKS], or node swarm-mcp.mjs --scripted [TASKS]');
  process.exit(2);
}
const scripted = modelFile === '--scripted';
const here = dirname(fileURLToPath(import.meta.url));
const serverScript = join(here, 'swarm-mcp', 'capitals-server.mjs');
const cliDir = dirname(createRequire(import.meta.url).resolve('@parl/cli/package.json'));
const parlBin = join(cliDir, JSON.parse((await import('node:fs')).readFileSync(join(cliDir, 'package.json'), 'utf8')).bin.parl);

/** Run the parl bin; its exit status and output. */
async function parl(args) {
  const child = spawn(process.execPath, [parlBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [status] = await once(child, 'close');
  return { status, stdout, stderr };
}

/**
 * The orchestrator's endpoint: the scripted one (it asks the `capital` tool for Japan's capital
 * when the tool is offered, then answers with the tool's result), or the GGUF model.
 */
async function orchestratorEndpoint() {
  if (scripted) {
    const { startChatEndpoint, messageText } = await import('@parl/test-support/chat-endpoint');
    const endpoint = await startChatEndpoint((request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool') return { text: `The capital of Japan is ${messageText(last)}.` };
      return (request.tools ?? []).some((t) => t.function.name === 'capital') ? { toolCalls: [['capital', { country: 'Japan' }]] } : { text: 'no capital tool was offered' };
    });
    return { baseURL: endpoint.baseURL, modelName: 'scripted-capitals', close: () => endpoint.close() };
  }
  const { startLocalLlmServer } = await import('@parl/test-support/local-llm/server');
  return startLocalLlmServer({ modelPath: modelFile, contextSize: 8192 });
}

const llm = await orchestratorEndpoint();
const http = spawn(process.execPath, [serverScript, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const [mcpUrl] = await once(createInterface({ input: http.stdout }), 'line');
  const common = ['swarm', 'run', '--base-url', llm.baseURL, '--model', llm.modelName, '--subagents', 'scripted', '--suite', 'deep', '--tasks', tasks, '--limits', 'browsecomp', '--tool-timeout', '10'];
  for (const mcp of [`stdio:${JSON.stringify(process.execPath)} ${JSON.stringify(serverScript)}`, mcpUrl]) {
    // Asynchronously: the model server runs in this process and must keep answering.
    const run = await parl([...common, '--mcp', mcp]);
    console.log(`--mcp ${mcp.startsWith('stdio:') ? 'stdio' : 'http'}: exit ${run.status}; ${run.stderr.trim()}`);
    const lines = run.stdout.trim().split('\n').filter((l) => l.startsWith('{'));
    for (const l of lines) {
      const r = JSON.parse(l);
      const toolResults = r.messages.filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
      console.log(`  ${r.id}: ${r.end_reason}, critical steps ${r.critical_steps}, tool_errors ${r.tool_errors}; tool results: ${JSON.stringify(toolResults)}`);
    }
    if (run.status !== 0) process.exitCode = 1;
  }
} finally {
  http.kill('SIGTERM');
  await llm.close();
}
