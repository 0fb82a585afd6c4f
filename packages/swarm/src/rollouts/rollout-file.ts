/**
 * The rollout file: finished samples are appended to `<out>.partial` (one write per sample, so a
 * crash loses at most the sample in flight and leaves no half line that is read back); when
 * every sample is done the lines, with their advantages, are written to a temporary file and
 * renamed onto `<out>` in one step.
 *
 * @module
 */
import { appendFile, readFile, rename, rm, writeFile } from 'node:fs/promises';

/** A finished sample as kept in the partial file (everything but the advantage). */
export interface SampleLine {
  readonly group_id: string;
  readonly sample: number;
  readonly [field: string]: unknown;
}

/** The key of a sample: task and sample number. */
export function sampleKey(groupId: string, sample: number): string {
  return `${groupId}\u0000${sample}`;
}

async function readLines(path: string): Promise<SampleLine[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const lines: SampleLine[] = [];
  // A last line without its newline was cut by a crash: not a finished sample.
  const complete = text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  for (const line of complete.split('\n')) {
    if (line.trim() === '') continue;
    const value = JSON.parse(line) as SampleLine;
    if (typeof value.group_id === 'string' && typeof value.sample === 'number') lines.push(value);
  }
  return lines;
}

/** The samples already finished for `out`: those of a finished `out` and of its partial file. */
export async function finishedSamples(out: string): Promise<Map<string, SampleLine>> {
  const done = new Map<string, SampleLine>();
  for (const line of [...(await readLines(out)), ...(await readLines(`${out}.partial`))]) {
    const { advantage: _advantage, ...rest } = line as SampleLine & { advantage?: unknown };
    done.set(sampleKey(line.group_id, line.sample), rest as SampleLine);
  }
  return done;
}

/** Append one finished sample to the partial file. */
export async function appendSample(out: string, line: SampleLine): Promise<void> {
  await appendFile(`${out}.partial`, `${JSON.stringify(line)}\n`);
}

/** Write the final lines to `out` atomically (temporary file, then rename) and drop the partial file. */
export async function writeRollouts(out: string, lines: readonly object[]): Promise<void> {
  const tmp = `${out}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    await rename(tmp, out);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await rm(`${out}.partial`, { force: true });
}
