/**
 * What a test does when a program it needs (Chromium, redis-server, Python) is missing: outside CI
 * it skips with the reason (the caller warns); under `CI=true` it fails, because a CI run that
 * skipped them would pass without having tested them. Every lookup in this package goes through it.
 *
 * @module
 */

/** Whether `env` says this is a CI run (`CI=true` or `CI=1`, as CI services set it). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['CI'] === 'true' || env['CI'] === '1';
}

/**
 * `skipReason`, for the caller to skip with; under CI (see {@link isCi}) an error instead, naming
 * what is missing.
 *
 * @throws Error under CI: `CI=true and a test needs what is missing: <skipReason>`
 */
export function skipOutsideCi(skipReason: string, env: NodeJS.ProcessEnv = process.env): string {
  if (isCi(env)) throw new Error(`CI=true and a test needs what is missing: ${skipReason}`);
  return skipReason;
}
