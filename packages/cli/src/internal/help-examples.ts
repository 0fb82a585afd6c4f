/**
 * The examples each command's `--help` ends with: real invocations a user can copy.
 *
 * @module
 */

/** Example command lines by command name, each shown as `$ parl …`. */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  reward: [
    'parl reward --in rollouts.jsonl --out labelled.jsonl',
    'parl reward --in rollouts.jsonl --lambda1 linear:0.1:0:10000 --step 2500',
    'parl reward --budget 40 --on-budget truncate --on-error skip < rollouts.jsonl',
    'parl trace --in spans.jsonl --outcomes outcomes.jsonl | parl reward',
  ],
  'critical-steps': [
    'parl critical-steps --in rollouts.jsonl --budget 40 --on-budget truncate',
    'parl critical-steps --in rollouts.jsonl --on-error skip --format csv --columns id,critical_steps',
    'parl reward --in rollouts.jsonl | parl critical-steps',
  ],
  trace: [
    'parl trace --in spans.jsonl --findings findings.jsonl --out records.jsonl',
    'parl trace --in agents-sdk-traces.jsonl --strict',
    'parl trace --in spans.jsonl --grouping children   # as if each turn\'s sub-agents ran together',
  ],
  schedule: [
    'parl schedule linear:0.1:0:10000',
    'parl schedule piecewise:0=0,500=0.1,10000=0 --csv',
    'parl schedule cosine:0.3:0:2000 --html lambda1.html',
  ],
  simulate: [
    'parl simulate --policy serial --family deep --episodes 100',
    'parl simulate --policy runs/parl-seed1 --format csv --columns id,critical_steps',
    'parl simulate --policy balanced | parl reward',
  ],
  train: [
    'parl train',
    'parl train --preset serial-collapse --steps 400 --seed 7 --out runs/mine',
    'parl train --config my-settings.json --quiet --json',
  ],
  sweep: [
    'parl sweep --grid sweep.json',
    'parl sweep --grid sweep.json --out sweeps/lambda --threads 2',
    'parl sweep --grid sweep.json --queue redis://10.0.0.5:6379   # then parl worker on each machine',
  ],
  worker: ['parl worker --queue redis://10.0.0.5:6379', 'parl worker --queue redis://10.0.0.5:6379 --threads 4 --stalled-after 60'],
  report: ['parl report runs/parl-seed1', 'parl report runs/parl-seed1 --out /tmp/report.html'],
  serve: [
    'parl serve --log episodes.jsonl',
    'PARL_SERVE_TOKEN=s3cret parl serve --host 0.0.0.0 --port 4318',
    'parl serve --quiet-period 5000 --rollout-attribute app.rollout_id --fsync interval',
  ],
};

/** The help text after a command's options: its examples. */
export function examplesHelp(command: string): string {
  const lines = HELP_EXAMPLES[command] ?? [];
  return lines.length === 0 ? '' : `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
