// Runs each training preset at its full length and prints its outcome and wall time
// (pnpm --filter @parl/sim presets; SEED=5 to run another seed). Used for the measured outcomes
// in docs/simulator.md.
import { getPreset, resolveTrainingConfig, train } from '../dist/index.js';
import { PRESET_NAMES } from '../dist/names.js';

const names = process.argv.length > 2 ? process.argv.slice(2) : PRESET_NAMES;
for (const name of names) {
  const config = process.env.SEED === undefined ? getPreset(name) : resolveTrainingConfig({ seed: Number(process.env.SEED) }, getPreset(name));
  const t0 = performance.now();
  const result = await train(config);
  const seconds = (performance.now() - t0) / 1000;
  const { final, baseline_serial: serial, latency_to_target: latency } = result.summary;
  console.log(
    JSON.stringify({
      preset: name,
      seed: config.seed,
      steps: config.steps,
      seconds: Number(seconds.toFixed(1)),
      final,
      baseline_serial: serial,
      critical_steps_ratio: serial.critical_steps / final.critical_steps,
      latency_to_target: latency,
    }),
  );
  result.policy.dispose();
}
