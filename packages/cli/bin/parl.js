#!/usr/bin/env node
// The `parl` command: runs runCli from the built library. This file is committed rather than
// built, so that a package manager can link the bin of a workspace that is not built yet.
let cli;
try {
  cli = await import('../dist/run-cli.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && /[\\/]cli[\\/]dist[\\/]run-cli\.js/.test(String(error.message))) {
    process.stderr.write('parl: @parl/cli is not built yet; run `pnpm build` in the PARL-TS repository first\n');
    process.exit(1);
  }
  throw error;
}
process.exitCode = await cli.runCli(process.argv);
