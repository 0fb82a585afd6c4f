/** Small spec §5 records used across tests. */
export const GOOD_RECORDS = [
  { id: 'a', training_step: 5000, num_subagents: 25, assigned_subtasks: 25, completed_subtasks: 20, success: true, quality: 0.8 },
  {
    id: 'b',
    r_perf: 0.5,
    stages: [
      { main_steps: 1, sub_steps: [3, 5, 2] },
      { main_steps: 1, sub_steps: [{ steps: 4, finished: true }, { steps: 9, finished: false }] },
      { main_steps: 1, sub_steps: [] },
    ],
  },
  { id: 'c', success: 1, stages: [{ main_steps: 2 }, { main_steps: 0.5, sub_steps: [1, 1] }] },
] as const;

/** A record whose second stage's first sub-agent has -3 steps. */
export const BAD_RECORD = { id: 'bad', r_perf: 1, stages: [{ main_steps: 1, sub_steps: [1] }, { main_steps: 1, sub_steps: [-3, 2] }] };

export function jsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

export function parseJsonl(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
