// Preload for a child `node --import` process: at exit, writes every module the process loaded
// (ES modules through a resolve hook, CommonJS modules from the require cache) to the file named by
// PARL_LOADED_MODULES_FILE, one URL or path a line. Used to check what a command loads.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.PARL_LOADED_MODULES_FILE;
if (file !== undefined) {
  register(new URL('./loaded-modules-hook.mjs', import.meta.url), { data: { file } });
  process.on('exit', () => {
    appendFileSync(file, Object.keys(createRequire(import.meta.url).cache).map((p) => `${p}\n`).join(''));
  });
}
