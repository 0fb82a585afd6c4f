#!/usr/bin/env node
// A streamable-HTTP MCP server (written with @modelcontextprotocol/sdk) with the look-up tools,
// on 127.0.0.1, stateless (a fresh server per request). Prints its URL as its first stdout line.
//   node http-server.mjs [PORT]
//   node http-server.mjs --bearer-env VAR   refuse (401) a request without `Authorization: Bearer $VAR`
//   node http-server.mjs --browser-login    OAuth-protected, by an authorization server whose
//                                           authorization endpoint is a login page (a person must log in)
//   node http-server.mjs --oauth            OAuth-protected, by an authorization server that registers
//                                           clients, approves at once (a redirect with the code) and issues
//                                           tokens that expire after 1 s with a refresh token;
//                                           GET /oauth-grants lists the token grants it served
//   node http-server.mjs --huge MIB         also a tool `huge` whose result is MIB MiB of text
//   node http-server.mjs --sse              answer calls with an event stream (default: JSON)
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { garbling, lookupServer } from './lookup-tools.mjs';

const args = process.argv.slice(2);
const bearerEnv = args.includes('--bearer-env') ? args[args.indexOf('--bearer-env') + 1] : undefined;
const browserLogin = args.includes('--browser-login');
const oauth = args.includes('--oauth');
const hugeMiB = args.includes('--huge') ? Number(args[args.indexOf('--huge') + 1]) : undefined;
const sse = args.includes('--sse');
/** --oauth: the access tokens issued (token → expiry, ms) and the grant types served. */
const issued = new Map();
const grants = [];
const port = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--huge') ?? 0);
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

async function formOf(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The OAuth documents and endpoints of --oauth: true when `req` was one of them (or refused for want of a token). */
async function oauthRoutes(req, res) {
  const json = (body, status = 200, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const url = new URL(req.url, origin);
  if (url.pathname === '/.well-known/oauth-protected-resource/mcp') return json({ resource: `${origin}/mcp`, authorization_servers: [origin] }), true;
  if (url.pathname === '/.well-known/oauth-authorization-server') {
    return json({ issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register`, response_types_supported: ['code'], grant_types_supported: ['authorization_code', 'refresh_token'], code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'] }), true;
  }
  if (url.pathname === '/register') return json({ client_id: 'registered-client', redirect_uris: [] }, 201), true;
  if (url.pathname === '/authorize') {
    const back = new URL(url.searchParams.get('redirect_uri'));
    back.searchParams.set('code', 'code-1');
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    return res.writeHead(302, { location: back.href }).end(), true;
  }
  if (url.pathname === '/token') {
    const form = await formOf(req);
    const grant = form.get('grant_type');
    grants.push(grant);
    if ((grant === 'authorization_code' && form.get('code') === 'code-1' && form.get('code_verifier')) || (grant === 'refresh_token' && form.get('refresh_token') === 'refresh-1')) {
      const token = `access-${grants.length}`;
      issued.set(token, Date.now() + 1_000);
      return json({ access_token: token, token_type: 'Bearer', expires_in: 1, refresh_token: 'refresh-1' }), true;
    }
    return json({ error: 'invalid_grant' }, 400), true;
  }
  if (url.pathname === '/oauth-grants') return json(grants), true;
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  if (!(issued.get(token) > Date.now())) {
    res.writeHead(401, { 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` }).end();
    return true;
  }
  return false;
}

const http = createServer(async (req, res) => {
  if (browserLogin && browserLoginRoutes(req, res)) return;
  if (oauth && (await oauthRoutes(req, res))) return;
  if (bearerEnv !== undefined && req.headers.authorization !== `Bearer ${process.env[bearerEnv]}`) {
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token' }));
    return;
  }
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const server = lookupServer('http-lookup', hugeMiB === undefined ? {} : { hugeMiB });
  const transport = garbling(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !sse }));
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
