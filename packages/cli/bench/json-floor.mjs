// The JSONL floor of bench/label.mjs, run as a process of its own (one core): stream the file,
// split it into lines, JSON.parse and JSON.stringify each line, write the lines out. No PARL
// work at all: what any labeller that re-serialises records must at least do.
// Usage: node bench/json-floor.mjs IN OUT (OUT `-`: standard output)
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) throw new Error('usage: json-floor.mjs IN OUT');
const out = output === '-' ? process.stdout : createWriteStream(output);
let carry = '';
let lines = 0;
for await (const chunk of createReadStream(input, { highWaterMark: 1 << 20 })) {
  const text = carry + chunk.toString('utf8');
  const parts = text.split('\n');
  carry = parts.pop() ?? '';
  let batch = '';
  for (const line of parts) {
    if (line === '') continue;
    batch += `${JSON.stringify(JSON.parse(line))}\n`;
    lines++;
  }
  if (!out.write(batch)) await once(out, 'drain');
}
if (carry !== '') {
  out.write(`${JSON.stringify(JSON.parse(carry))}\n`);
  lines++;
}
if (out !== process.stdout) {
  out.end();
  await once(out, 'finish');
}
process.stderr.write(`${JSON.stringify({ lines })}\n`);
