import { fileURLToPath } from 'node:url';
import { ParlInputError } from '@parl/core';
import { startHttpMcpServer, stdioMcpSpec, type HttpMcpServer } from '@parl/test-support/mcp-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, type SwarmTask, type ToolProvider } from '../src/index.js';
import { connectMcpServer } from '../src/tools/mcp-provider.js';
import { loadToolsModule } from '../src/tools/module-provider.js';
import { MAX_MCP_MESSAGE_BYTES } from '../src/tools/mcp-message-lines.js';
import { openRunTools } from '../src/tools/run-tools.js';
import { memoryTracing, orchestratorFrom, settingsWith, toolTexts, type Call } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 2, entities: 2, attributes: 1 }) as [SwarmTask];
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** An orchestrator that makes `calls` in its first reply, then answers with what the tools returned. */
async function callTools(providers: readonly ToolProvider[], calls: readonly Call[], toolTimeoutMs = 2_000) {
  const tracing = memoryTracing();
  const orchestrator = orchestratorFrom((n, options) => (n === 0 ? calls : toolTexts(options).join(' | ')));
  const out = await runEpisode(task, settingsWith({ orchestrator, toolProviders: providers, toolTimeoutMs, tracer: tracing.tracer }));
  const spans = tracing.exporter.getFinishedSpans().filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
  return { ...out, texts: out.answer.split(' | '), spans };
}

describe('a tools module (--tools): AI SDK tools with zod and JSON schemas, async', () => {
  it('lists its tools once and runs them through the executor; errors and schema failures reach the model as results, counted', async () => {
    const provider = await loadToolsModule(fixture('tools-module.mjs'));
    expect(provider.tools.map((t) => t.name).sort()).toEqual(['multiply', 'sleepy', 'weather']);
    const { texts, record, spans } = await callTools([provider], [
      ['weather', { city: 'Oslo' }],
      ['multiply', { a: 6, b: 7 }],
      ['weather', { city: 'Atlantis' }],
      ['multiply', { a: 'six', b: 7 }],
      ['sleepy', {}],
    ], 200);
    expect(texts[0]).toBe('sunny in Oslo');
    expect(JSON.parse(texts[1] as string)).toEqual({ product: 42 });
    expect(texts[2]).toBe('error: weather failed: no weather station in Atlantis');
    expect(texts[3]).toMatch(/^error: multiply's arguments do not match its schema: .*a must be number/);
    expect(texts[4]).toBe('error: sleepy gave no result within 200 ms (the tool timeout)');
    expect(record.tool_errors).toBe(3);
    expect(record.end_reason).toBe('answer');
    expect(spans).toHaveLength(5);
    expect(spans.filter((s) => s.attributes['error.type'] !== undefined).map((s) => s.attributes['error.type'])).toEqual(expect.arrayContaining(['tool_error', 'timeout']));
  });

  it('a module that throws on import is one line naming the flag and the file', async () => {
    const file = fixture('throwing-tools.mjs');
    const err = await loadToolsModule(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParlInputError);
    expect((err as Error).message).toContain('--tools');
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('the search API key is not set');
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('MCP servers (--mcp) written with @modelcontextprotocol/sdk: stdio and streamable HTTP', () => {
  let http: HttpMcpServer;
  beforeAll(async () => {
    http = await startHttpMcpServer();
  });
  afterAll(async () => {
    await http.stop();
  });

  it('stdio: the tools are listed once and called; a tool error, a bad argument, garbage and a hang are tool results, counted', async () => {
    const tools = await openRunTools({ mcp: [stdioMcpSpec()] });
    try {
      expect(tools.providers[0]?.tools.map((t) => t.name)).toEqual(['capital', 'add', 'has_env', 'forecast', 'crash', 'hang', 'garbage']);
      const { texts, record } = await callTools(tools.providers, [
        ['capital', { country: 'France' }],
        ['add', { a: 2, b: 3 }],
        ['capital', { country: 'Atlantis' }],
        ['add', { a: 'two', b: 3 }],
        ['garbage', {}],
        ['hang', {}],
      ], 500);
      expect(texts.slice(0, 2)).toEqual(['Paris', '5']);
      expect(texts[2]).toBe('error: capital: no capital known for Atlantis');
      expect(texts[3]).toMatch(/^error: add's arguments do not match its schema/);
      expect(texts[4]).toMatch(/^error: garbage failed: the MCP server .* answered with an error/);
      expect(texts[5]).toBe('error: hang gave no result within 500 ms (the tool timeout)');
      expect(record.tool_errors).toBe(4);
    } finally {
      await tools.close();
    }
  });

  it(`stdio: a message past ${MAX_MCP_MESSAGE_BYTES} bytes fails its own call at once, named, and the server goes on serving; one under it is read whole`, async () => {
    const over = await openRunTools({ mcp: [stdioMcpSpec('--huge', String(MAX_MCP_MESSAGE_BYTES / 1024 / 1024 + 1))] });
    try {
      // Two calls at once: the long answer is matched to its own call by its id.
      const { texts, record } = await callTools(over.providers, [['huge', {}], ['capital', { country: 'Japan' }]], 20_000);
      const said = /^error: huge failed: the MCP server node stdio-server\.mjs answered with an error: MCP error -32603: the server's message was (\d+) bytes, more than the (\d+) this client reads; it was not read$/.exec(texts[0] ?? '');
      expect(said, texts[0]?.slice(0, 300)).not.toBeNull();
      // The tool's 17 MiB of text and the JSON-RPC envelope around it.
      expect(Number(said?.[1]) - (MAX_MCP_MESSAGE_BYTES + 1024 * 1024)).toBeGreaterThan(0);
      expect(Number(said?.[1]) - (MAX_MCP_MESSAGE_BYTES + 1024 * 1024)).toBeLessThan(200);
      expect(Number(said?.[2])).toBe(MAX_MCP_MESSAGE_BYTES);
      expect(texts[1]).toBe('Tokyo');
      expect(record.tool_errors).toBe(1);
      const after = await callTools(over.providers, [['add', { a: 2, b: 3 }]]);
      expect(after.texts).toEqual(['5']);
    } finally {
      await over.close();
    }
    const under = await openRunTools({ mcp: [stdioMcpSpec('--huge', '12')] });
    try {
      const { texts, record } = await callTools(under.providers, [['huge', {}]], 20_000);
      expect(texts[0]).toBe('x'.repeat(12 * 1024 * 1024));
      expect(record.tool_errors).toBe(0);
    } finally {
      await under.close();
    }
  }, 60_000);

  it(`streamable HTTP: an answer past ${MAX_MCP_MESSAGE_BYTES} bytes, as JSON or as an event, fails its own call at once, named; one under it is read whole`, async () => {
    for (const flags of [['--huge', String(MAX_MCP_MESSAGE_BYTES / 1024 / 1024 + 1)], ['--huge', String(MAX_MCP_MESSAGE_BYTES / 1024 / 1024 + 1), '--sse']]) {
      const server = await startHttpMcpServer(flags);
      const tools = await openRunTools({ mcp: [server.url] });
      try {
        const { texts, record } = await callTools(tools.providers, [['huge', {}], ['capital', { country: 'Japan' }]], 20_000);
        expect(texts[0], flags.join(' ')).toBe(`error: huge failed: the MCP server ${server.url} answered with an error: MCP error -32603: the server's message was more than ${MAX_MCP_MESSAGE_BYTES} bytes, the most this client reads; it was not read`);
        expect(texts[1]).toBe('Tokyo');
        expect(record.tool_errors).toBe(1);
      } finally {
        await tools.close();
        await server.stop();
      }
    }
    const server = await startHttpMcpServer(['--huge', '12', '--sse']);
    const tools = await openRunTools({ mcp: [server.url] });
    try {
      const { texts } = await callTools(tools.providers, [['huge', {}]], 20_000);
      expect(texts[0]).toBe('x'.repeat(12 * 1024 * 1024));
    } finally {
      await tools.close();
      await server.stop();
    }
  }, 60_000);

  it("a result that breaks the tool's own outputSchema is a tool error, counted; a good one is the result", async () => {
    const tools = await openRunTools({ mcp: [stdioMcpSpec()] });
    try {
      const { texts, record } = await callTools(tools.providers, [['forecast', { city: 'Oslo' }], ['forecast', { city: 'Nowhere' }]], 2_000);
      expect(texts[0]).toBe('21');
      expect(texts[1]).toMatch(/^error: forecast's result breaks its own outputSchema: result\/celsius must be number$/);
      expect(record.tool_errors).toBe(1);
    } finally {
      await tools.close();
    }
  });

  it('--mcp-env forwards the named variables to a stdio server, and only those; a variable that is not set is named, never a value', async () => {
    const environment = { ...process.env, PARL_TEST_FORWARDED: 'forwarded-value', PARL_TEST_KEPT: 'kept-value' };
    const tools = await openRunTools({ mcp: [stdioMcpSpec()], mcpEnv: ['PARL_TEST_FORWARDED'], environment });
    try {
      const { texts } = await callTools(tools.providers, [['has_env', { name: 'PARL_TEST_FORWARDED' }], ['has_env', { name: 'PARL_TEST_KEPT' }]]);
      expect(texts).toEqual(['set', 'not set']);
    } finally {
      await tools.close();
    }
    const unset = await openRunTools({ mcp: [stdioMcpSpec()], mcpEnv: ['PARL_TEST_UNSET'], environment }).catch((e: unknown) => e);
    expect(unset).toBeInstanceOf(ParlInputError);
    expect((unset as Error).message).toMatch(/^--mcp-env must be an environment variable that is set.*PARL_TEST_UNSET/);
  });

  it('stdio: a server that dies mid-run gives tool errors, never a hang', async () => {
    const tools = await openRunTools({ mcp: [stdioMcpSpec()] });
    try {
      const { texts, record } = await callTools(tools.providers, [['crash', {}]], 1_000);
      expect(texts[0]).toMatch(/^error: crash/);
      const after = await callTools(tools.providers, [['capital', { country: 'Japan' }]], 1_000);
      expect(after.texts[0]).toMatch(/^error: capital failed: the MCP server/);
      expect(record.tool_errors + after.record.tool_errors).toBe(2);
    } finally {
      await tools.close();
    }
  });

  it('a server that does not start is one line naming --mcp and the server, before any episode', async () => {
    const spec = stdioMcpSpec('--fail-start');
    const err = await openRunTools({ mcp: [spec] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParlInputError);
    expect((err as Error).message).toContain('--mcp');
    // The server's last stderr line says why; the server is named by a short name, not its command line.
    expect((err as Error).message).toMatch(/^--mcp must be an MCP server that starts and lists its tools; it did not: .*its last stderr line: stdio-server: cannot start \(asked to fail\), got "node stdio-server\.mjs"$/);
    expect((err as Error).message).not.toContain(process.execPath);
    expect((err as Error).message).not.toContain('\n');
    const unreachable = await connectMcpServer('http://127.0.0.1:9/mcp').catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(ParlInputError);
  });

  it('streamable HTTP on loopback: the same tools; stdio and HTTP together clash on names, named', async () => {
    const tools = await openRunTools({ mcp: [http.url] });
    try {
      const { texts, record } = await callTools(tools.providers, [['capital', { country: 'Kenya' }], ['garbage', {}]]);
      expect(texts[0]).toBe('Nairobi');
      expect(texts[1]).toMatch(/^error: garbage failed/);
      expect(record.tool_errors).toBe(1);
    } finally {
      await tools.close();
    }
    const clash = await openRunTools({ mcp: [stdioMcpSpec(), http.url] }).catch((e: unknown) => e);
    expect((clash as Error).message).toMatch(/both offer "capital"/);
  });
});

describe('an HTTP MCP server that needs a credential', () => {
  const secret = 'sk-test-4f1c9a7e2b';
  const environment = { ...process.env, PARL_TEST_MCP_TOKEN: secret };
  let guarded: HttpMcpServer;
  let login: HttpMcpServer;
  let oauth: HttpMcpServer;
  beforeAll(async () => {
    guarded = await startHttpMcpServer(['--bearer-env', 'PARL_TEST_MCP_TOKEN'], environment);
    login = await startHttpMcpServer(['--browser-login']);
    oauth = await startHttpMcpServer(['--oauth']);
  });
  afterAll(async () => {
    await guarded?.stop();
    await login?.stop();
    await oauth?.stop();
  });

  it('OAuth without a browser: registered, approved at once, PKCE; an expired token is refreshed and the call made again', async () => {
    const tools = await openRunTools({ mcp: [oauth.url] });
    try {
      expect(tools.providers[0]?.tools.map((t) => t.name)).toContain('capital');
      // The server's tokens last 1 s.
      await new Promise((r) => setTimeout(r, 1_200));
      const { texts, record } = await callTools(tools.providers, [['capital', { country: 'France' }]]);
      expect(texts[0]).toBe('Paris');
      expect(record.tool_errors).toBe(0);
    } finally {
      await tools.close();
    }
    const grants = (await (await fetch(new URL('/oauth-grants', oauth.url))).json()) as string[];
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
  });

  it('a bearer token from the environment (--mcp-header with env:) reaches it; a wrong or missing one is one line without the token', async () => {
    const tools = await openRunTools({ mcp: [guarded.url], mcpHeader: ['Authorization: Bearer env:PARL_TEST_MCP_TOKEN'], environment });
    try {
      const { texts, spans } = await callTools(tools.providers, [['capital', { country: 'Peru' }]]);
      expect(texts[0]).toBe('Lima');
      expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain(secret);
    } finally {
      await tools.close();
    }
    const wrong = await openRunTools({ mcp: [guarded.url], mcpHeader: ['Authorization: Bearer env:PARL_TEST_OTHER'], environment: { ...environment, PARL_TEST_OTHER: 'not-the-token' } }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ParlInputError);
    expect((wrong as Error).message).toMatch(/^--mcp must be an MCP server that starts and lists its tools; it did not: /);
    expect((wrong as Error).message).not.toContain('not-the-token');
    const unset = await openRunTools({ mcp: [guarded.url], mcpHeader: ['Authorization: Bearer env:PARL_TEST_UNSET'], environment }).catch((e: unknown) => e);
    expect((unset as Error).message).toMatch(/^--mcp-header must be env:VAR naming an environment variable that is set \(PARL_TEST_UNSET is not set or empty\), got "Authorization: env:PARL_TEST_UNSET"/);
    expect((unset as ParlInputError).value).toBe("Authorization: env:PARL_TEST_UNSET");
  });

  it('an authorization server that wants a person at a browser is refused in one line saying how to pass a token', async () => {
    const err = await openRunTools({ mcp: [login.url] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParlInputError);
    expect((err as Error).message).toContain("its authorization server wants a person to approve in a browser, which this run cannot do; get a token elsewhere (the server's own docs say how) and pass it as --mcp-header 'Authorization: Bearer env:VAR'");
    expect((err as Error).message).not.toContain('\n');
  });
});
