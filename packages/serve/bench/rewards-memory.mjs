// Peak memory of parl serve for one large POST /v1/rewards body, over real loopback HTTP: the
// server runs with its default options (port 0, an episode log in a scratch folder) in a process
// of its own (bench/server-process.mjs); its resident set is read from /proc (Linux) before the
// body (idle) and its high-water mark (VmHWM: the peak resident set of the process, every thread
// included) once the answer is in. Each body goes to a fresh server, so each peak is that body's.
// Prints, per body, the peak over the body's size, (peak − idle) over the body's size, and a
// same-run baseline: the peak of a Node process that only holds the same body in a Buffer,
// JSON.parse-s it whole and labels it with @parl/core (what materialising every record costs).
//
// Against the target of issue 39 (peak within idle + 4 × the body), each line ends with the peak
// as a share of that target.
//
// Usage: node bench/rewards-memory.mjs [MiB (default 16)] [repeats (default 3)]
// Env: KINDS (default json-ids,json,ndjson-ids) the bodies to send; MAX_EPISODES the server's maxEpisodes.
// Bodies: `json-ids` a JSON array of records with an `id` (a trainer's batch; every record
// logged and held for lookup), `json` the same without ids, `ndjson-ids` the same records with ids
// as NDJSON. Records are small spec §5 records (about 150 bytes), so a body holds many of them:
// the worst case for holding one object per record.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const mib = Number(process.argv[2] ?? 16);
const repeats = Number(process.argv[3] ?? 3);
const target = mib * 1024 * 1024 - 64;
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`load average at start (1, 5, 15 min): ${load()}; ${mib} MiB bodies, ${repeats} repeats, Node ${process.version}`);

const record = (i, withId) =>
  JSON.stringify({
    ...(withId ? { id: `ep-${i}` } : {}),
    training_step: i % 1000,
    num_subagents: 1 + (i % 30),
    assigned_subtasks: 1 + (i % 30),
    completed_subtasks: i % 30,
    r_perf: (i % 10) / 10,
    stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }],
  });

/** A body of records up to `target` bytes: a JSON array or NDJSON. */
function makeBody(kind) {
  const withId = kind.endsWith('-ids');
  const ndjson = kind.startsWith('ndjson');
  const parts = [];
  let bytes = 2;
  for (let i = 0; ; i++) {
    const text = record(i, withId);
    if (bytes + text.length + 1 > target) break;
    parts.push(text);
    bytes += text.length + 1;
  }
  return { bytes: Buffer.from(ndjson ? `${parts.join('\n')}\n` : `[${parts.join(',')}]`), records: parts.length, type: ndjson ? 'application/x-ndjson' : 'application/json' };
}

/** Resident set and its high-water mark of process `pid`, MiB (from /proc/PID/status). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

/** A fresh server process; resolves with its URL, pid and a stop function. */
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

/** POST `body` and read the answer whole; resolves with its status and length. */
function post(url, path, body, type) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers: { 'content-type': type, 'content-length': body.length } }, (res) => {
      let length = 0;
      res.on('data', (chunk) => (length += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode, length }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The baseline: a process that holds the body, parses it whole and labels every record (peak MiB, idle MiB). */
async function baseline(kind) {
  const code = `
    const { labelReward, resolveRewardConfig } = await import('@parl/core');
    const { readFileSync } = await import('node:fs');
    const mem = () => { const s = readFileSync('/proc/self/status', 'utf8'); return (n) => Number(new RegExp('^' + n + ':\\\\s+(\\\\d+) kB', 'm').exec(s)[1]) / 1024; };
    const idle = mem()('VmRSS');
    const chunks = [];
    for await (const c of process.stdin) chunks.push(c);
    const body = Buffer.concat(chunks);
    const text = body.toString('utf8');
    const records = ${kind.startsWith('ndjson') ? "text.split('\\n').filter((l) => l !== '').map((l) => JSON.parse(l))" : 'JSON.parse(text)'};
    const config = resolveRewardConfig({});
    const out = records.map((r, i) => JSON.stringify(labelReward(r, config, 'record ' + (i + 1))));
    process.stdout.write(JSON.stringify({ idle, peak: mem()('VmHWM'), n: out.length }));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stdin.end(makeBody(kind).bytes);
  await new Promise((resolve) => child.once('exit', resolve));
  return JSON.parse(out);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'parl-serve-mem-'));
try {
  for (const kind of (process.env.KINDS ?? 'json-ids,json,ndjson-ids').split(',')) {
    const body = makeBody(kind);
    const bodyMiB = body.bytes.length / 1024 / 1024;
    const rows = [];
    for (let r = 0; r < repeats; r++) {
      const server = await startServer(dir);
      // Let start-up garbage settle, then read the idle resident set.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const idle = memoryOf(server.pid).rss;
      const answer = await post(server.url, '/v1/rewards', body.bytes, body.type);
      if (answer.status !== 200) throw new Error(`${kind}: the server answered ${answer.status}`);
      const { hwm } = memoryOf(server.pid);
      rows.push({ idle, peak: hwm, answer: answer.length });
      await server.stop();
      rmSync(join(dir, 'episodes.jsonl'), { force: true });
    }
    const base = await baseline(kind);
    const idle = median(rows.map((x) => x.idle));
    const peak = median(rows.map((x) => x.peak));
    console.log(
      `${kind.padEnd(10)} body ${bodyMiB.toFixed(1)} MiB (${body.records} records), answer ${(rows[0].answer / 1024 / 1024).toFixed(1)} MiB: ` +
        `server idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB (runs: ${rows.map((x) => x.peak.toFixed(0)).join(', ')}); ` +
        `peak/body ${(peak / bodyMiB).toFixed(1)}×, (peak − idle)/body ${((peak - idle) / bodyMiB).toFixed(1)}×; ` +
        `baseline (parse whole + label in one process): peak − idle ${(base.peak - base.idle).toFixed(0)} MiB = ${((base.peak - base.idle) / bodyMiB).toFixed(1)}× the body; ` +
        `server over baseline ${((peak - idle) / (base.peak - base.idle)).toFixed(2)}×; ` +
        `target idle + 4 × body = ${(idle + 4 * bodyMiB).toFixed(0)} MiB: peak ${(peak / (idle + 4 * bodyMiB)).toFixed(2)}× of it (${peak <= idle + 4 * bodyMiB ? 'met' : 'not met'})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  console.log(`load average at end: ${load()}`);
}
