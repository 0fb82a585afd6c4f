import { describe, expect, it } from 'vitest';
import { assembleTrajectory, TokenTrajectoryError, type CallTokens } from '../src/runtime/token-trajectory.js';

const lp = (...values: number[]) => ({ content: values.map((logprob) => ({ token: 'x', logprob, bytes: [], top_logprobs: [] })) });

describe('the token trajectory of spec §10.4', () => {
  it('the first prompt, then each completion (mask 1, its log-probs) and what the next prompt adds (mask 0, log-prob 0)', () => {
    const calls: CallTokens[] = [
      { promptIds: [1, 2, 3], completionIds: [10, 11], logprobs: lp(-0.1, -0.2) },
      { promptIds: [1, 2, 3, 10, 11, 20, 21, 22], completionIds: [12], logprobs: lp(-0.3) },
      { promptIds: [1, 2, 3, 10, 11, 20, 21, 22, 12, 30], completionIds: [13, 14], logprobs: lp(-0.4, -0.5) },
    ];
    expect(assembleTrajectory(calls)).toEqual({
      prompt_ids: [1, 2, 3],
      response_ids: [10, 11, 20, 21, 22, 12, 30, 13, 14],
      response_mask: [1, 1, 0, 0, 0, 1, 0, 1, 1],
      response_logprobs: [-0.1, -0.2, 0, 0, 0, -0.3, 0, -0.4, -0.5],
    });
  });

  it('a prompt that does not begin with the previous prompt and completion is retokenized_at, and the trajectory stops before it', () => {
    const calls: CallTokens[] = [
      { promptIds: [1, 2], completionIds: [10], logprobs: lp(-0.1) },
      { promptIds: [1, 2, 10, 20], completionIds: [11], logprobs: lp(-0.2) },
      // the template re-rendered the completion 11 as 99
      { promptIds: [1, 2, 10, 20, 99, 30], completionIds: [12], logprobs: lp(-0.3) },
      { promptIds: [1, 2, 10, 20, 99, 30, 12], completionIds: [13], logprobs: lp(-0.4) },
    ];
    expect(assembleTrajectory(calls)).toEqual({
      prompt_ids: [1, 2],
      response_ids: [10, 20, 11],
      response_mask: [1, 0, 1],
      response_logprobs: [-0.1, 0, -0.2],
      retokenized_at: 2,
    });
  });

  it('an answer without token ids or with log-probs that do not match its tokens is an error naming the call', () => {
    expect(() => assembleTrajectory([{ promptIds: undefined, completionIds: [1], logprobs: lp(-1) }])).toThrow(/call 0: prompt_token_ids missing/);
    expect(() => assembleTrajectory([{ promptIds: [1], completionIds: [2, 3], logprobs: lp(-1) }])).toThrow(TokenTrajectoryError);
    expect(() => assembleTrajectory([{ promptIds: [1], completionIds: [2, 3], logprobs: lp(-1) }])).toThrow(/1 log-probabilities for 2 completion tokens/);
    expect(() => assembleTrajectory([{ promptIds: [1], completionIds: [2], logprobs: null }])).toThrow(/logprobs.content missing/);
  });
});
