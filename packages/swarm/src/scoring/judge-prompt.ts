/**
 * BrowseComp's grading prompt (the simple-evals grader template: the judge reads the question,
 * the response and the correct answer, and replies `extracted_final_answer`, `reasoning`,
 * `correct: yes|no`, `confidence`) and the reading of its reply.
 *
 * @module
 */

/** The grading prompt for one response. */
export function judgePrompt(question: string, response: string, correctAnswer: string): string {
  return `Judge whether the following [response] to [question] is correct or not based on the precise and unambiguous [correct_answer] below.

[question]: ${question}

[response]: ${response}

Your judgement must be in the format and criteria specified below:

extracted_final_answer: The final exact answer extracted from the [response]. Put the extracted answer as 'None' if there is no exact, final answer to extract from the response.

[correct_answer]: ${correctAnswer}

reasoning: Explain why the extracted_final_answer is correct or incorrect based on [correct_answer], focusing only on if there are meaningful differences between [correct_answer] and the extracted_final_answer. Do not comment on any background to the problem, do not attempt to solve the problem, do not argue for any answer different than [correct_answer], focus only on whether the answers match.

correct: Answer 'yes' if extracted_final_answer matches the [correct_answer] given above, or is within a small margin of error for numerical problems. Answer 'no' otherwise, i.e. if there is any inconsistency, ambiguity, non-equivalency, or if the extracted answer is incorrect.

confidence: The extracted confidence score between 0% and 100% from [response]. Put 100 if there is no confidence score available.`;
}

/** A judge's verdict as read from its reply. */
export interface JudgeVerdict {
  readonly extracted_final_answer: string | null;
  readonly reasoning: string | null;
  readonly correct: 'yes' | 'no';
  readonly confidence: number | null;
}

/** The value after `key:` on its own line (Markdown bold and quotes around it allowed), up to the next key. */
function field(reply: string, key: string): string | undefined {
  const re = new RegExp(`^[\\s*_#>-]*${key}[\\s*_]*:[\\s*_]*([\\s\\S]*?)(?=^[\\s*_#>-]*(?:extracted_final_answer|reasoning|correct|confidence)[\\s*_]*:|(?![\\s\\S]))`, 'im');
  const m = re.exec(reply);
  return m?.[1]?.trim().replace(/^["']|["']$/g, '');
}

/** The verdict in a reply, or undefined when it has no `correct: yes|no`. */
export function readVerdict(reply: string): JudgeVerdict | undefined {
  const correct = field(reply, 'correct')?.toLowerCase().match(/^(yes|no)\b/)?.[1];
  if (correct !== 'yes' && correct !== 'no') return undefined;
  const confidence = field(reply, 'confidence')?.match(/\d+(?:\.\d+)?/)?.[0];
  return {
    extracted_final_answer: field(reply, 'extracted_final_answer') ?? null,
    reasoning: field(reply, 'reasoning') ?? null,
    correct,
    confidence: confidence === undefined ? null : Number(confidence),
  };
}
