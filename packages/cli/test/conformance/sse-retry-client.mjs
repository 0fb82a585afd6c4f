// The client command of the conformance framework's `sse-retry` scenario: `node sse-retry-client.mjs
// SERVER_URL`. That scenario's server lists no tools (it answers a `tools/call` of any name), so
// `parl swarm run` has nothing to call on it; this command connects exactly as --mcp does
// (@parl/swarm's connectMcpClient: the same transport, headers and OAuth) and calls the
// scenario's tool, whose stream the server closes after sending `retry`; the call's answer comes
// on the resumed stream.
import { connectMcpClient } from '@parl/swarm';

const [serverUrl] = process.argv.slice(2);
const connection = await connectMcpClient(serverUrl, { startTimeoutMs: 20_000 });
try {
  const result = await connection.client.callTool({ name: 'test_reconnection', arguments: {} }, undefined, { timeout: 20_000 });
  console.log(JSON.stringify(result.content));
} finally {
  await connection.close();
}
