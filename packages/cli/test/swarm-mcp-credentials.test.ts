import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHttpMcpServer, type HttpMcpServer } from '@parl/test-support/mcp-servers';
import { startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';

// A server behind a bearer token, the token only in the environment (--mcp-header with env:).
const TOKEN = 'mcp-secret-7d2e91c4';
const LITERAL = 'literal-header-value-5b8a';
let dir: TempDir;
let server: HttpMcpServer;
let endpoint: ChatEndpoint;

beforeAll(async () => {
  dir = await makeTempDir('cli-mcp-credentials');
  server = await startHttpMcpServer(['--bearer-env', 'PARL_TEST_MCP_TOKEN'], { ...process.env, PARL_TEST_MCP_TOKEN: TOKEN });
  // The orchestrator calls the server's capital tool, then answers.
  endpoint = await startChatEndpoint((request) =>
    request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : (request.tools ?? []).some((t) => t.function.name === 'capital') ? { toolCalls: [['capital', { country: 'Kenya' }]] } : { text: 'no tool' },
  );
  process.env['PARL_TEST_MCP_TOKEN'] = TOKEN;
});
afterAll(async () => {
  delete process.env['PARL_TEST_MCP_TOKEN'];
  await endpoint?.close();
  await server?.stop();
  await dir?.remove();
});

describe('parl swarm run against an HTTP MCP server behind a bearer token', () => {
  it('runs with the token only in the environment; the MCP result reaches the line; the token and a literal header are in no line, span or message', async () => {
    const out = join(dir.path, 'run.jsonl');
    const spans = join(dir.path, 'spans.jsonl');
    const r = await parl(['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--subagents', 'scripted', '--tasks', '1', '--tools-for', 'orchestrator',
      '--mcp', server.url, '--mcp-header', 'Authorization: Bearer env:PARL_TEST_MCP_TOKEN', '--mcp-header', `X-Team: ${LITERAL}`, '--out', out, '--spans', spans]);
    expect(r.stderr).toMatch(/^parl swarm run: 1 episodes in /);
    expect(r.code).toBe(0);
    const lines = await readFile(out, 'utf8');
    const line = JSON.parse(lines.trim()) as { messages: { role: string; content: unknown }[]; rollout_options: Record<string, string> };
    // The MCP tool was called and its result is in the line.
    expect(line.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['Nairobi']);
    expect(line.rollout_options['mcp']).toBe(JSON.stringify([server.url]));
    const spansText = await readFile(spans, 'utf8');
    expect(spansText).toContain('Nairobi');
    for (const text of [lines, spansText, r.stdout, r.stderr]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(LITERAL);
    }
  }, 60_000);

  it('a wrong token or an unset variable is one line before any episode, without the token', async () => {
    process.env['PARL_TEST_WRONG_TOKEN'] = `${TOKEN}-wrong`;
    try {
      const wrong = await parl(['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '1', '--mcp', server.url, '--mcp-header', 'Authorization: Bearer env:PARL_TEST_WRONG_TOKEN']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
      expect(wrong.stderr).toMatch(/^parl swarm run: --mcp must be an MCP server that starts and lists its tools; it did not: .*invalid_token/);
      expect(wrong.stderr).not.toContain(TOKEN);
    } finally {
      delete process.env['PARL_TEST_WRONG_TOKEN'];
    }
    const unset = await parl(['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '1', '--mcp', server.url, '--mcp-header', 'Authorization: Bearer env:PARL_TEST_NOT_SET']);
    expect(unset.code).toBe(2);
    expect(unset.stderr.trim()).toBe('parl swarm run: --mcp-header must be env:VAR naming an environment variable that is set (PARL_TEST_NOT_SET is not set or empty), got "Authorization: env:PARL_TEST_NOT_SET"');
    const literal = await parl(['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--mcp-client-id', 'c', '--mcp-client-secret', LITERAL]);
    expect(literal.code).toBe(2);
    expect(literal.stderr).toMatch(/--mcp-client-secret must be env:VAR/);
    expect(literal.stderr).not.toContain(LITERAL);
    const badHeader = await parl(['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--mcp-header', LITERAL]);
    expect(badHeader.code).toBe(2);
    expect(badHeader.stderr).not.toContain(LITERAL);
  }, 60_000);
});

describe('--mcp-private-key env:VAR (private_key_jwt; the conformance suite\'s auth/client-credentials-jwt runs the grant)', () => {
  const run = (args: string[]) => parl(['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '1', '--mcp', server.url, '--mcp-client-id', 'c', ...args]);
  const pem = (type: 'ed25519' | 'rsa' | 'ec'): string => {
    const pair = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'secp256k1' }) : type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
    return pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  };

  it('a key on the command line, a variable that is not a key or holds a key no JWS algorithm here takes, or a key beside a secret: one line naming the flag, never the key', async () => {
    const literal = await run(['--mcp-private-key', '-----BEGIN PRIVATE KEY-----']);
    expect(literal.code).toBe(2);
    expect(literal.stderr).toMatch(/^parl swarm run: --mcp-private-key must be env:VAR, the environment variable that holds the client's private key \(PEM\)/);
    expect(literal.stderr).not.toContain('BEGIN');
    const cases: [string, RegExp][] = [
      ['not a key at all', /^parl swarm run: --mcp-private-key must be an environment variable holding a private key in PEM \(PKCS#8, SEC1 EC or PKCS#1 RSA\), unencrypted, got "env:PARL_TEST_KEY"$/],
      [pem('ed25519'), /^parl swarm run: --mcp-private-key must be an RSA key or an EC key on P-256, P-384 or P-521 \(its variable holds a key of type ed25519\), got "env:PARL_TEST_KEY"$/],
      [pem('ec'), /^parl swarm run: --mcp-private-key must be an RSA key or an EC key on P-256, P-384 or P-521 \(its variable holds an EC key on secp256k1\), got "env:PARL_TEST_KEY"$/],
    ];
    for (const [value, error] of cases) {
      process.env['PARL_TEST_KEY'] = value;
      try {
        const r = await run(['--mcp-private-key', 'env:PARL_TEST_KEY']);
        expect(r.code).toBe(2);
        expect(r.stderr.trim()).toMatch(error);
        expect(r.stderr).not.toContain('PRIVATE KEY');
      } finally {
        delete process.env['PARL_TEST_KEY'];
      }
    }
    process.env['PARL_TEST_KEY'] = pem('rsa');
    process.env['PARL_TEST_SECRET'] = 's';
    try {
      const both = await run(['--mcp-private-key', 'env:PARL_TEST_KEY', '--mcp-client-secret', 'env:PARL_TEST_SECRET']);
      expect(both.code).toBe(2);
      expect(both.stderr.trim()).toBe('parl swarm run: --mcp-private-key must be given without --mcp-client-secret (not both), got "env:PARL_TEST_KEY"');
    } finally {
      delete process.env['PARL_TEST_KEY'];
      delete process.env['PARL_TEST_SECRET'];
    }
    const unset = await run(['--mcp-private-key', 'env:PARL_TEST_KEY_UNSET']);
    expect(unset.stderr.trim()).toBe('parl swarm run: --mcp-private-key must be env:VAR naming an environment variable that is set (PARL_TEST_KEY_UNSET is not set or empty), got "env:PARL_TEST_KEY_UNSET"');
    const noId = await parl(['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--mcp', server.url, '--mcp-private-key', 'env:X']);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toMatch(/--mcp-private-key.*--mcp-client-id/);
  }, 60_000);
});
