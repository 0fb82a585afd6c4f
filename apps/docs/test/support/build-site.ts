import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The docs-site package folder (apps/docs). */
export const DOCS_APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The repository root. */
export const REPO_ROOT = resolve(DOCS_APP_DIR, '..', '..');

/** A package the site documents: its folder and its npm name. */
export interface DocumentedPackage {
  /** Folder relative to the repository root, e.g. `packages/core`. */
  readonly dir: string;
  /** The `name` of its package.json, e.g. `@parl/core`. */
  readonly name: string;
}

/** The packages listed as entry points in apps/docs/typedoc.json, with their npm names. */
export function documentedPackages(): DocumentedPackage[] {
  const config = JSON.parse(readFileSync(join(DOCS_APP_DIR, 'typedoc.json'), 'utf8')) as { entryPoints: string[] };
  return config.entryPoints.map((entry) => {
    const absolute = resolve(DOCS_APP_DIR, entry);
    const pkg = JSON.parse(readFileSync(join(absolute, 'package.json'), 'utf8')) as { name: string };
    return { dir: absolute.slice(REPO_ROOT.length + 1), name: pkg.name };
  });
}

/** The guides (markdown files) apps/docs/typedoc.json lists as project documents, in site order. */
export function siteGuides(): string[] {
  const config = JSON.parse(readFileSync(join(DOCS_APP_DIR, 'typedoc.json'), 'utf8')) as { projectDocuments: string[] };
  return config.projectDocuments.map((entry) => resolve(DOCS_APP_DIR, entry));
}

/** The page typedoc's default router gives a package's module, relative to the site root. */
export function modulePagePath(packageName: string): string {
  return `modules/${packageName.replace(/[^A-Za-z0-9-]/g, '_')}.html`;
}

/** The outcome of one typedoc run. */
export interface SiteBuild {
  /** typedoc's exit status. */
  readonly status: number | null;
  /** stdout and stderr together, colours stripped. */
  readonly output: string;
}

/** Build the site exactly as `pnpm docs:build` does, but into `outDir`. */
export function buildSite(outDir: string): SiteBuild {
  const require = createRequire(join(DOCS_APP_DIR, 'package.json'));
  const typedocBin = join(dirname(require.resolve('typedoc/package.json')), 'bin', 'typedoc');
  const run = spawnSync(process.execPath, [typedocBin, '--out', outDir], {
    cwd: DOCS_APP_DIR,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  // eslint-disable-next-line no-control-regex
  const output = `${run.stdout}${run.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
  return { status: run.status, output };
}
