/**
 * Headless Chromium for the browser tests: where it is (or why the tests skip), the flags every
 * test launches it with, and the launch itself (playwright-core, the system Chromium; no browser
 * is downloaded).
 *
 * @module
 */
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { skipOutsideCi } from './ci-requirement.js';

/** The Chromium flags the project's browser tests run with (headless, sandbox off, no background traffic). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where Chromium is, or why the browser tests skip. */
export type ChromiumLookup = { readonly path: string; readonly skipReason?: undefined } | { readonly path?: undefined; readonly skipReason: string };

/**
 * Find Chromium: `CHROMIUM_PATH` when set, else Debian's `/usr/bin/chromium` (what `.ci/run`
 * installs). Returns a skip reason naming the path looked at when it is not executable; under
 * `CI=true` that throws instead.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  const path = env['CHROMIUM_PATH'] !== undefined && env['CHROMIUM_PATH'] !== '' ? env['CHROMIUM_PATH'] : '/usr/bin/chromium';
  try {
    accessSync(path, constants.X_OK);
    return { path };
  } catch {
    return { skipReason: skipOutsideCi(`no executable Chromium at ${path} (install Debian's chromium, as .ci/run does, or set CHROMIUM_PATH)`, env) };
  }
}

/**
 * Launch the Chromium at `path` headless with {@link CHROMIUM_ARGS}; close it in the test's
 * `afterAll`. Each launch gets a fresh user-data folder (playwright-core makes one under the
 * system temp folder and removes it on `close()`), so no profile carries over between tests.
 */
export function launchChromium(path: string): Promise<Browser> {
  return chromium.launch({ executablePath: path, args: [...CHROMIUM_ARGS] });
}

export type { Browser, Page } from 'playwright-core';
