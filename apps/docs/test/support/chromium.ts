import { accessSync, constants } from 'node:fs';

/** Where the headless Chromium for the browser tests is, or why the tests skip. */
export type ChromiumLookup = { readonly path: string; readonly skipReason?: undefined } | { readonly path?: undefined; readonly skipReason: string };

/** The Chromium flags the project's browser tests run with. */
export const CHROMIUM_ARGS: readonly string[] = ['--headless', '--no-sandbox', '--disable-gpu'];

/**
 * Find Chromium: `CHROMIUM_PATH` when set, else Debian's `/usr/bin/chromium` (what `.ci/run`
 * installs). Returns a skip reason naming the path looked at when it is not executable.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  const path = env.CHROMIUM_PATH !== undefined && env.CHROMIUM_PATH !== '' ? env.CHROMIUM_PATH : '/usr/bin/chromium';
  try {
    accessSync(path, constants.X_OK);
    return { path };
  } catch {
    return {
      skipReason: `no executable Chromium at ${path} (install Debian's chromium, as .ci/run does, or set CHROMIUM_PATH)`,
    };
  }
}
