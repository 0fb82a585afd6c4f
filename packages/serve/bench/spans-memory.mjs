// Peak memory of parl serve holding root-less spans (issue 39 item 2): SPANS spans of TRACES
// traces whose root span never comes, posted as OTLP JSON over real loopback HTTP in requests of
// 1,000 spans, to a fresh server process (bench/server-process.mjs, default options: an episode
// log, its bounds on open spans) — the spans stay open until the trace timeout. Prints the
// server's idle resident set, its peak (VmHWM, every thread included) once all are in, the spans
// it holds open (`parl_open_spans`) and the traces it evicted, against the target: a peak under
// 250 MB.
//
// Usage (after `pnpm --filter @parl/serve build`): node bench/spans-memory.mjs [spans (default 200000)] [repeats (default 1)]
// Env: TRACES (default 1), MAX_SPANS_PER_TRACE and MAX_OPEN_SPANS (the server's bounds; default its own).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const total = Number(process.argv[2] ?? 200_000);
const repeats = Number(process.argv[3] ?? 1);
const traces = Number(process.env.TRACES ?? 1);
const PER_REQUEST = 1000;
const TARGET_MB = 250;
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`load average at start (1, 5, 15 min): ${load()}; ${total} root-less spans in ${traces} trace(s), ${repeats} repeat(s), Node ${process.version}`);

const hex = (n, width) => n.toString(16).padStart(width, '0');
const ROOT = hex(0xfffff, 16); // never sent
/** Request `r`: spans `r·1000 …`, round-robin over the traces, each a model call under the missing root. */
function body(r) {
  const spans = [];
  for (let k = 0; k < PER_REQUEST; k++) {
    const i = r * PER_REQUEST + k;
    const start = 1_700_000_000_000_000_000n + BigInt(i) * 1_000_000n;
    spans.push({
      traceId: hex((i % traces) + 1, 32),
      spanId: hex(i + 1, 16),
      parentSpanId: ROOT,
      name: 'chat',
      kind: 3,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + 500_000n),
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.request.model', value: { stringValue: 'kimi-k2' } },
      ],
    });
  }
  return Buffer.from(JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] }));
}

function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

async function startServer(dir) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('server-process.mjs', import.meta.url)), join(dir, 'episodes.jsonl')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const stop = () => new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  return { url, pid: child.pid, stop };
}

function send(url, path, method, bytes) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers: bytes === undefined ? {} : { 'content-type': 'application/json', 'content-length': bytes.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

const metric = (text, pattern) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
const dir = mkdtempSync(join(tmpdir(), 'parl-serve-spans-'));
try {
  for (let r = 0; r < repeats; r++) {
    const server = await startServer(dir);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = memoryOf(server.pid).rss;
    for (let q = 0; q < Math.ceil(total / PER_REQUEST); q++) {
      const res = await send(server.url, '/v1/traces', 'POST', body(q));
      if (res.status !== 200) throw new Error(`request ${q + 1}: the server answered ${res.status} ${res.text}`);
    }
    const { hwm, rss } = memoryOf(server.pid);
    const metrics = (await send(server.url, '/metrics', 'GET')).text;
    const open = metric(metrics, /^parl_open_spans (\d+)$/m);
    const evicted = ['trace-spans', 'open-spans'].map((reason) => `${reason} ${metric(metrics, new RegExp(`^parl_traces_evicted_total\\{reason="${reason}"\\} (\\d+)$`, 'm')) || 0}`).join(', ');
    console.log(
      `run ${r + 1}: server idle ${idle.toFixed(0)} MiB, peak ${hwm.toFixed(0)} MiB (${((hwm * 1048576) / 1e6).toFixed(0)} MB), now ${rss.toFixed(0)} MiB; ` +
        `open spans ${open}, traces evicted: ${evicted}; (peak − idle) / open span ${open > 0 ? (((hwm - idle) * 1048576) / open).toFixed(0) : '–'} bytes; ` +
        `target peak < ${TARGET_MB} MB: ${((hwm * 1048576) / 1e6 / TARGET_MB).toFixed(2)}× of it (${(hwm * 1048576) / 1e6 < TARGET_MB ? 'met' : 'not met'})`,
    );
    await server.stop();
    rmSync(join(dir, 'episodes.jsonl'), { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  console.log(`load average at end: ${load()}`);
}
