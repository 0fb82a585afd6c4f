import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temp folder per call, removed after each test. */
export function useTempDirs(): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), 'parl-cli-'));
    made.push(d);
    return d;
  };
}

/** File names in a folder, sorted (to check that no temp file is left behind). */
export function filesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}
