#!/usr/bin/env node
/**
 * The public surface of every published package, pinned as an API report
 * (`packages/NAME/api/NAME.api.md`, written by Microsoft's API Extractor from the built
 * `dist/index.d.ts`). All `@parl/*` packages release under one version, so every exported name is
 * a promise: a change to it must show as a diff of the report in review.
 *
 *   node scripts/api-report.mjs            # check: exit 1 when a report differs from the build
 *   node scripts/api-report.mjs --update   # rewrite the reports after an intended change
 *   node scripts/api-report.mjs core io    # only these packages
 *
 * Needs `pnpm build` first. apps/docs/test/api-reports.test.ts runs the check in `pnpm test`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import apiExtractor from '@microsoft/api-extractor';

const { Extractor, ExtractorConfig } = apiExtractor;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Folders under packages/ holding a published (non-private) package. */
export function publishedPackageDirs() {
  return readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(ROOT, 'packages', e.name, 'package.json')))
    .map((e) => e.name)
    .filter((dir) => JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')).private !== true)
    .sort();
}

/**
 * Run API Extractor on one package.
 * @param {string} dir - folder under packages/
 * @param {boolean} update - rewrite the report instead of comparing
 * @returns {{ dir: string, changed: boolean, errors: string[] }}
 */
export function checkApiReport(dir, update) {
  const projectFolder = join(ROOT, 'packages', dir);
  const pkg = JSON.parse(readFileSync(join(projectFolder, 'package.json'), 'utf8'));
  const entry = join(projectFolder, 'dist', 'index.d.ts');
  if (!existsSync(entry)) return { dir, changed: false, errors: [`${entry} is missing: run pnpm build first`] };
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder,
      mainEntryPointFilePath: entry,
      bundledPackages: [],
      compiler: { overrideTsconfig: { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: true, types: ['node'] }, include: ['dist/index.d.ts'] } },
      apiReport: { enabled: true, reportFileName: `${dir}.api.md`, reportFolder: join(projectFolder, 'api'), reportTempFolder: join(projectFolder, 'node_modules', '.api-extractor') },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'none' },
          'ae-missing-release-tag': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
      newlineKind: 'lf',
    },
    configObjectFullPath: join(projectFolder, 'api-extractor.json'),
    packageJsonFullPath: join(projectFolder, 'package.json'),
    packageJson: pkg,
  });
  if (update) mkdirSync(join(projectFolder, 'api'), { recursive: true });
  const errors = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (message) => {
      if (message.logLevel === 'error' || (message.logLevel === 'warning' && !update)) errors.push(message.text);
      message.handled = true;
    },
  });
  return { dir, changed: result.apiReportChanged, errors };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const update = args.includes('--update');
  const wanted = args.filter((a) => !a.startsWith('--'));
  let failed = false;
  for (const dir of wanted.length > 0 ? wanted : publishedPackageDirs()) {
    const { changed, errors } = checkApiReport(dir, update);
    for (const e of errors) console.error(`api-report: ${dir}: ${e}`);
    if (errors.length > 0) failed = true;
    if (changed && !update) {
      failed = true;
      console.error(`api-report: the public surface of @parl/${dir} changed: review packages/${dir}/api/${dir}.api.md (git diff) and run node scripts/api-report.mjs --update`);
    } else if (changed) {
      console.log(`api-report: packages/${dir}/api/${dir}.api.md updated`);
    }
  }
  process.exit(failed ? 1 : 0);
}
