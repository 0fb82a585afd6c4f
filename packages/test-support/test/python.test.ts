import { describe, expect, it } from 'vitest';
import { isCi } from '../src/ci-requirement.js';
import { findPython } from '../src/python.js';

describe('findPython', () => {
  it('names the path it looked at when no Python 3 runs there', () => {
    const missing = findPython({ PATH: process.env['PATH'], PYTHON: '/nonexistent/python3' });
    expect(missing).toEqual({ skipReason: "no Python 3 at /nonexistent/python3 (install Debian's python3, as .ci/run does, or set PYTHON)" });
  });

  it('fails instead of skipping under CI=true (or CI=1)', () => {
    for (const CI of ['true', '1']) {
      expect(() => findPython({ CI, PYTHON: '/nonexistent/python3' })).toThrow(
        "CI=true and a test needs what is missing: no Python 3 at /nonexistent/python3 (install Debian's python3, as .ci/run does, or set PYTHON)",
      );
    }
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({})).toBe(false);
  });

  it('takes a program that is not Python 3 for a missing one', () => {
    expect(findPython({ PYTHON: '/bin/true' }).skipReason).toMatch(/^no Python 3 at \/bin\/true/);
  });
});
