// `node --import ./record-loads.mjs`: record the modules the process resolves (see load-hooks.mjs).
import { register } from 'node:module';

register('./load-hooks.mjs', import.meta.url);
