/**
 * Files appended one line at a time (issue 36.2 / 36.8): each line's place, a torn last line told
 * from foreign text wherever the crash cut it (every offset of the last line, a cut inside the
 * first bytes and inside a multi-byte character included), cutting it off, appending after it, and
 * reading a line back by its place.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendedLines, openLineAppender, partialPathOf, readAppendedLine, type AppendedLine } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'parl-appended-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = '{"group_id":';
const lines = [`${START}"a","note":"plain"}`, `${START}"b","note":"é — ü 🙂 multi-byte"}`];
const whole = `${lines.join('\n')}\n`;

async function collect(path: string, start = START): Promise<AppendedLine[]> {
  const out: AppendedLine[] = [];
  for await (const l of appendedLines(path, start)) out.push(l);
  return out;
}

describe('appendedLines', () => {
  it("gives each line's text and place; a missing file has none", async () => {
    const path = join(dir, 'places.jsonl');
    await writeFile(path, `\uFEFF${whole}`);
    const got = await collect(path);
    expect(got.map((l) => l.text)).toEqual(lines);
    expect(got.every((l) => l.complete && !l.torn)).toBe(true);
    for (const [i, l] of got.entries()) expect(await readAppendedLine(path, l)).toBe(lines[i]);
    expect(got[0]?.offset).toBe(3); // after the byte-order mark
    expect(await collect(join(dir, 'missing.jsonl'))).toEqual([]);
    expect(partialPathOf('/x/r.jsonl')).toBe('/x/r.jsonl.partial');
  });

  it('a last line cut at every offset is torn, and cutting it leaves the finished lines to append after', async () => {
    const path = join(dir, 'torn.jsonl');
    const full = Buffer.from(whole);
    const lastStart = Buffer.byteLength(`${lines[0]}\n`);
    // every cut from the last line's first byte to its last (the LF not written)
    for (let cut = lastStart + 1; cut < full.length; cut++) {
      await writeFile(path, full.subarray(0, cut));
      const got = await collect(path);
      expect(got, `cut at ${cut}`).toHaveLength(2);
      const tail = got[1] as AppendedLine;
      expect({ cut, complete: tail.complete, torn: tail.torn, offset: tail.offset, bytes: tail.bytes }).toEqual({ cut, complete: false, torn: true, offset: lastStart, bytes: cut - lastStart });
      const appender = await openLineAppender(path, { keep: true, torn: tail });
      const place = await appender.append(lines[1] as string);
      expect(place.offset, `cut at ${cut}`).toBe(lastStart);
      expect(await readFile(path, 'utf8'), `cut at ${cut}`).toBe(whole);
    }
  });

  it('a last line that does not begin as the lines of the file do is not torn (foreign text)', async () => {
    const path = join(dir, 'foreign.jsonl');
    for (const tail of ['x', '{"other":1', '{"group_id"X', ' {"group_id":"a"']) {
      await writeFile(path, `${lines[0]}\n${tail}`);
      const got = await collect(path);
      expect({ tail, torn: got[1]?.torn, complete: got[1]?.complete }).toEqual({ tail, torn: false, complete: false });
    }
    await truncate(path, 0);
    expect(await collect(path)).toEqual([]);
  });

  it('openLineAppender without keep starts the file empty; with keep, a missing file is created by the first append', async () => {
    const path = join(dir, 'fresh.jsonl');
    await writeFile(path, whole);
    const fresh = await openLineAppender(path, { keep: false });
    expect(await readFile(path, 'utf8')).toBe('');
    expect(await fresh.append('one')).toEqual({ offset: 0, bytes: 3, complete: true });
    const later = join(dir, 'later.jsonl');
    const kept = await openLineAppender(later, { keep: true });
    await expect(readFile(later)).rejects.toThrow(/ENOENT/);
    await kept.append('é');
    expect(await kept.append('two')).toEqual({ offset: 3, bytes: 3, complete: true });
    expect(await readFile(later, 'utf8')).toBe('é\ntwo\n');
  });
});
