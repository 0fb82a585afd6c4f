/**
 * Python for the tests that run a script with it (the trainers' glue files, the Python clients of
 * `parl serve`, the trainer protocol): `PYTHON` when set, else Debian's `/usr/bin/python3` (what
 * `.ci/run` installs). The scripts use the standard library only.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { skipOutsideCi } from './ci-requirement.js';

/** Where Python is, or why the Python tests skip. */
export type PythonLookup = { readonly path: string; readonly skipReason?: undefined } | { readonly path?: undefined; readonly skipReason: string };

/**
 * Find Python 3: `PYTHON` when set, else `/usr/bin/python3`. Returns a skip reason naming the path
 * looked at when `--version` does not run there; under `CI=true` that throws instead.
 */
export function findPython(env: NodeJS.ProcessEnv = process.env): PythonLookup {
  const set = env['PYTHON'];
  const path = set !== undefined && set !== '' ? set : '/usr/bin/python3';
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && /^Python 3\./.test(`${probe.stdout}${probe.stderr}`.trim())) return { path };
  return { skipReason: skipOutsideCi(`no Python 3 at ${path} (install Debian's python3, as .ci/run does, or set PYTHON)`, env) };
}
