/** Writing one fixture file: JSON values, one per line, under test/fixtures/frameworks/<framework>/. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixtures folder of @parl/traces' tests. */
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'frameworks');

/** Write `values` as JSONL to `<framework>/<scenario>.jsonl`; returns the path. */
export function writeFixture(framework: string, scenario: string, values: readonly unknown[]): string {
  const path = join(FIXTURES, framework, `${scenario}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, values.map((v) => JSON.stringify(v)).join('\n') + '\n');
  return path;
}

/** Resolve after `ms` milliseconds (the scripted models' latency, so that concurrency shows in the times). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Write `bytes` to `<framework>/<file>` as they are; returns the path. */
export function writeFixtureBytes(framework: string, file: string, bytes: Uint8Array): string {
  const path = join(FIXTURES, framework, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  return path;
}
