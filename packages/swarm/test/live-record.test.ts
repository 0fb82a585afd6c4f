import { criticalSteps } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { LiveRecord } from '../src/runtime/live-record.js';

describe('the live record (core\'s meter, spec §2 / §5.2 / §10)', () => {
  it('gives a sub-agent that took a freed slot its wait, counts it in the budget check, and reads back through core', () => {
    const live = new LiveRecord();
    live.openTurn();
    const a = live.startSubAgent();
    a.steps++;
    a.steps++;
    live.endSubAgent(a, true);
    // the next sub-agent would wait a's 2 steps: 1 + (2 + 1)
    expect(live.criticalSteps('new-sub')).toBe(4);
    const b = live.startSubAgent();
    live.step(b);
    expect(b.waitSteps).toBe(2);
    live.endSubAgent(b, false);
    expect(live.stages()).toEqual([{ main_steps: 1, sub_steps: [{ steps: 2, finished: true }, { steps: 1, finished: false, wait_steps: 2 }] }]);
    expect(live.criticalSteps()).toBe(criticalSteps(live.stages()).critical_steps);
    expect(live.criticalSteps('main')).toBe(5);
    expect(() => {
      b.steps = 0;
    }).toThrow(RangeError);
  });

  it('nests a sub-agent\'s own sub-agents (spec §5.2), their waits included', () => {
    const live = new LiveRecord();
    live.openTurn();
    const lead = live.startSubAgent();
    lead.steps++;
    const w1 = live.startSubAgent(lead);
    w1.steps += 3;
    live.endSubAgent(w1, true);
    expect(live.criticalSteps('new-sub', lead)).toBe(1 + 1 + 3 + 1);
    const w2 = live.startSubAgent(lead);
    w2.steps++;
    live.endSubAgent(w2, true);
    lead.steps++;
    live.endSubAgent(lead, true);
    expect(live.stages()).toEqual([
      {
        main_steps: 1,
        sub_steps: [
          {
            stages: [
              { main_steps: 1, sub_steps: [{ steps: 3, finished: true }, { steps: 1, finished: true, wait_steps: 3 }] },
              { main_steps: 1, sub_steps: [] },
            ],
            finished: true,
          },
        ],
      },
    ]);
    expect(live.criticalSteps()).toBe(1 + 1 + 4 + 1);
    expect(criticalSteps(live.stages()).critical_steps).toBe(live.criticalSteps());
  });
});
