import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { STDIO_MCP_SERVER } from '@parl/test-support/mcp-servers';
import { startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const parlBin = fileURLToPath(new URL('../bin/parl.js', import.meta.url));

/** The processes now running: pid, parent and process group, from /proc. */
function processes(): { pid: number; ppid: number; pgrp: number }[] {
  const out: { pid: number; ppid: number; pgrp: number }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') continue;
    out.push({ pid: Number(name), ppid: Number(fields[1]), pgrp: Number(fields[2]) });
  }
  return out;
}

async function until<T>(what: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let endpoint: ChatEndpoint;
beforeAll(async () => {
  // Each answer is held back, so the run is mid-way when the signal comes.
  endpoint = await startChatEndpoint(undefined, { delayMs: 300 });
});
afterAll(async () => {
  await endpoint?.close();
});

describe('parl swarm run stops its MCP servers on Ctrl-C and SIGTERM', () => {
  it.each([['SIGTERM', 143], ['SIGINT', 130]] as const)('%s: a server started through a shell wrapper that ignores SIGTERM is gone when parl exits', async (signal, exitCode) => {
    // The shell stays as the server's parent (a wrapper, as npx and uvx are); the server ignores SIGTERM.
    const mcp = `stdio:sh -c '${process.execPath} ${STDIO_MCP_SERVER} --ignore-term; true'`;
    const child = spawn(process.execPath, [parlBin, 'swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--subagents', 'scripted', '--tasks', '20', '--mcp', mcp], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const seen = endpoint.requests.length;
    // The wrapper is parl's child, the leader of its own process group, with the server in it.
    const wrapper = await until(() => processes().find((p) => p.ppid === child.pid && p.pgrp === p.pid), 20_000);
    expect(wrapper, stderr).toBeDefined();
    const group = wrapper!.pid;
    expect(await until(() => (processes().filter((p) => p.pgrp === group).length >= 2 ? true : undefined), 10_000)).toBe(true);
    // Mid-run: the model has been asked.
    expect(await until(() => (endpoint.requests.length > seen ? true : undefined), 20_000)).toBe(true);
    const exited = once(child, 'exit');
    child.kill(signal);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(exitCode);
    expect(stderr).toMatch(/interrupted after \d+ of 20 episodes/);
    // A process SIGKILLed as parl exits may take a moment to leave /proc (longer on a loaded machine).
    expect(await until(() => (processes().some((p) => p.pgrp === group) ? undefined : true), 5_000)).toBe(true);
  }, 60_000);
});
