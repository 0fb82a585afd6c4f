import { spawnSync } from 'node:child_process';
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BIN, requireBuiltBin } from './support/bin.js';
import { useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

/** Records of about 2 KiB each, so a few hundred MB is only ~100k records of work. */
async function writeLargeJsonl(path: string, records: number): Promise<void> {
  const pad = 'x'.repeat(2000);
  const out = createWriteStream(path);
  let batch = '';
  for (let i = 0; i < records; i++) {
    batch += `{"id":${i},"r_perf":0.5,"note":"${pad}","stages":[{"main_steps":1,"sub_steps":[${i % 7},2,3]}]}\n`;
    if (batch.length > 1 << 20) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(batch);
  await once(out, 'finish');
}

describe('JSONL streaming', () => {
  it('labels a ~250 MB JSONL file in a process whose heap is capped at 64 MB', { timeout: 240_000 }, async () => {
    requireBuiltBin();
    const dir = tempDir();
    const input = join(dir, 'big.jsonl');
    const records = 120_000;
    await writeLargeJsonl(input, records);
    const size = statSync(input).size;
    expect(size).toBeGreaterThan(230 * 1024 * 1024);
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=64', BIN, 'critical-steps', '--in', input, '--out', join(dir, 'out.csv'), '--format', 'csv', '--columns', 'id,critical_steps', '--json'],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ records_read: records, records_written: records, records_skipped: 0 });
    expect(statSync(join(dir, 'out.csv')).size).toBeGreaterThan(records * 5);
  });
});
