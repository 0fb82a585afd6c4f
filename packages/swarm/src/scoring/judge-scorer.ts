/**
 * `judge` (spec §10.2): an LLM reads the question, the accepted answer and the response, and
 * replies BrowseComp's way; r_perf is 1 for `correct: yes`. The reply and its token usage are
 * kept in `score`; a reply that does not parse is asked again (up to the client's attempts),
 * then r_perf is 0 with `score.error` (graded incorrect, as BrowseComp does). A judge that cannot
 * be reached or does not answer within the run's request timeout and retries is a
 * {@link SwarmScoreError}: an error of the episode, never a reward of 0 (spec §10.2). Judge calls
 * are not model calls of the episode: they never count in critical steps.
 *
 * @module
 */
import { acceptedTexts, isAnswerTable, tableMarkdown, type AcceptedAnswer } from './accepted-answer.js';
import type { JudgeClient } from './judge-client.js';
import { judgePrompt, readVerdict, type JudgeVerdict } from './judge-prompt.js';
import { SwarmScoreError } from './score-error.js';
import type { Score, Scorer } from './score.js';

/** The accepted answer as the judge reads it. */
export function correctAnswerText(answer: AcceptedAnswer | undefined): string {
  if (isAnswerTable(answer)) return tableMarkdown(answer);
  const texts = acceptedTexts(answer);
  return texts.length === 1 ? (texts[0] as string) : texts.map((t) => JSON.stringify(t)).join(' or ');
}

/** What one grading gave: the verdict (undefined when none parsed), the last reply, the usage and the attempts. */
export interface JudgeOutcome {
  readonly verdict: JudgeVerdict | undefined;
  readonly reply: string;
  readonly usage: { readonly input_tokens: number; readonly output_tokens: number };
  readonly attempts: number;
  /** Why no verdict parsed, when none did. */
  readonly error?: string;
}

/**
 * Ask the judge until a reply parses, at most `judge.attempts` times.
 *
 * @param taskId - the task graded, named in the error
 * @throws {@link SwarmScoreError} (scorer `judge`) when the judge failed after its client's retries
 */
export async function grade(judge: JudgeClient, question: string, response: string, correctAnswer: string, taskId: string, signal?: AbortSignal): Promise<JudgeOutcome> {
  const prompt = judgePrompt(question, response, correctAnswer);
  let input = 0;
  let output = 0;
  let reply = '';
  const tries = Math.max(1, judge.attempts);
  for (let attempt = 1; attempt <= tries; attempt++) {
    let answer;
    try {
      answer = await judge.complete(prompt, signal);
    } catch (err) {
      // A cancelled episode is no failure of the judge.
      signal?.throwIfAborted();
      throw new SwarmScoreError('judge', taskId, `the judge ${judge.model} gave no reply: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, err);
    }
    input += answer.inputTokens ?? 0;
    output += answer.outputTokens ?? 0;
    reply = answer.text;
    const verdict = readVerdict(reply);
    if (verdict !== undefined) return { verdict, reply, usage: { input_tokens: input, output_tokens: output }, attempts: attempt };
  }
  const error = `the judge's reply did not parse (no "correct: yes|no") after ${tries} attempt${tries === 1 ? '' : 's'}`;
  return { verdict: undefined, reply, usage: { input_tokens: input, output_tokens: output }, attempts: tries, error };
}

/** The `judge` scorer on `judge`. */
export function judgeScorer(judge: JudgeClient): Scorer {
  return {
    name: 'judge',
    async score(answer, task, signal): Promise<Score> {
      const outcome = await grade(judge, task.prompt, answer, correctAnswerText(task.answer), task.id, signal);
      const { verdict } = outcome;
      return {
        scorer: 'judge',
        r_perf: verdict?.correct === 'yes' ? 1 : 0,
        model: judge.model,
        ...(verdict ?? {}),
        reply: outcome.reply,
        usage: outcome.usage,
        attempts: outcome.attempts,
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
      };
    },
  };
}
