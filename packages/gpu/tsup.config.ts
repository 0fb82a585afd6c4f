import { defineConfig } from 'tsup';
import { parlTsupConfig } from '../../tsup.base.js';

// The shared build (../../tsup.base.ts), with the tfjs packages kept external:
export default defineConfig(
  parlTsupConfig({
    // one tfjs-core instance shared with dependents, and the optional tfjs-node(-gpu) peers are
    // only ever loaded at run time ...
    external: ['@tensorflow/tfjs-core', /^@tensorflow\/tfjs-(backend|node)/, /^@parl\//],
    // ... except tfjs-core's gradient configs, which its Node build lacks and Node cannot load
    // from its ES-module files: they are bundled (src/gradients.ts).
    noExternal: [/^@tensorflow\/tfjs-core\/dist\//],
  }),
);
