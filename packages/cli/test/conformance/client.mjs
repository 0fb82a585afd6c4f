// The MCP conformance framework's client command: `node client.mjs SERVER_URL`, run by
// `conformance client --command "node client.mjs" --scenario NAME`. It runs `parl swarm run`
// against the scenario's server as a user would: the server as --mcp, the scenario's credentials
// (MCP_CONFORMANCE_CONTEXT) as --mcp-client-id and --mcp-client-secret or --mcp-private-key env:VAR, the orchestrator
// on the scripted endpoint the test started (PARL_CONFORMANCE_BASE_URL), which calls the server's
// tool. Its exit status is parl's.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const [serverUrl] = process.argv.slice(2);
const baseUrl = process.env.PARL_CONFORMANCE_BASE_URL;
if (serverUrl === undefined || baseUrl === undefined) {
  console.error('usage: PARL_CONFORMANCE_BASE_URL=URL node client.mjs SERVER_URL');
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const parlBin = fileURLToPath(new URL('../../bin/parl.js', import.meta.url));
const args = ['swarm', 'run', '--base-url', baseUrl, '--model', 'conformance', '--subagents', 'scripted', '--tasks', '1', '--tools-for', 'orchestrator', '--tool-timeout', '20', '--mcp', serverUrl];
const env = { ...process.env };
if (typeof context.client_id === 'string') args.push('--mcp-client-id', context.client_id);
if (typeof context.client_secret === 'string') {
  env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  args.push('--mcp-client-secret', 'env:CONFORMANCE_CLIENT_SECRET');
}
// private_key_jwt (SEP-1046): the key's PEM in a variable; parl takes the algorithm from the key.
if (typeof context.private_key_pem === 'string') {
  env.CONFORMANCE_CLIENT_KEY = context.private_key_pem;
  args.push('--mcp-private-key', 'env:CONFORMANCE_CLIENT_KEY');
}
const child = spawn(process.execPath, [parlBin, ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
const [code] = await once(child, 'exit');
process.exit(code ?? 1);
