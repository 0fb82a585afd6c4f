#!/usr/bin/env node
// A streamable-HTTP MCP server (written with @modelcontextprotocol/sdk) with the look-up tools,
// on 127.0.0.1, stateless (a fresh server per request). Prints its URL as its first stdout line.
//   node http-server.mjs [PORT]
//   node http-server.mjs --bearer-env VAR   refuse (401) a request without `Authorization: Bearer $VAR`
//   node http-server.mjs --browser-login    OAuth-protected, by an authorization server whose
//                                           authorization endpoint is a login page (a person must log in)
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { garbling, lookupServer } from './lookup-tools.mjs';

const args = process.argv.slice(2);
const bearerEnv = args.includes('--bearer-env') ? args[args.indexOf('--bearer-env') + 1] : undefined;
const browserLogin = args.includes('--browser-login');
const port = Number(args.find((a) => /^\d+$/.test(a)) ?? 0);
let origin = '';

/** The OAuth documents and endpoints of --browser-login: true when `req` was one of them. */
function browserLoginRoutes(req, res) {
  const json = (body, status = 200) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const path = new URL(req.url, origin).pathname;
  if (path === '/.well-known/oauth-protected-resource/mcp') return json({ resource: `${origin}/mcp`, authorization_servers: [origin] }), true;
  if (path === '/.well-known/oauth-authorization-server') {
    return json({ issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'] }), true;
  }
  if (path === '/register') return json({ client_id: 'registered-client', redirect_uris: [] }, 201), true;
  if (path === '/authorize') return res.writeHead(200, { 'content-type': 'text/html' }).end('<form>log in</form>'), true;
  if (path === '/mcp') {
    res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` }).end();
    return true;
  }
  res.writeHead(404).end();
  return true;
}

const http = createServer(async (req, res) => {
  if (browserLogin && browserLoginRoutes(req, res)) return;
  if (bearerEnv !== undefined && req.headers.authorization !== `Bearer ${process.env[bearerEnv]}`) {
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token' }));
    return;
  }
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const server = lookupServer('http-lookup');
  const transport = garbling(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500).end(String(err));
  }
});
http.listen(port, '127.0.0.1', () => {
  origin = `http://127.0.0.1:${http.address().port}`;
  process.stdout.write(`${origin}/mcp\n`);
});
process.on('SIGTERM', () => http.close(() => process.exit(0)));
