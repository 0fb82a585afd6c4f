/**
 * A labelling thread of `parl serve` (loaded by piscina from `dist/label-worker.js`): labels one
 * `/v1/rewards` body per task and moves the answer, log lines and points back without a copy.
 *
 * @module
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { labelRecordsBody, type LabelBodyFailure, type LabelBodyTask, type LabelledBody } from './labelling/labelled-body.js';

/**
 * Label one body (piscina's task function).
 *
 * @param task - the body and its reward query
 */
export default function labelBodyTask(task: LabelBodyTask): LabelledBody | LabelBodyFailure {
  const out = labelRecordsBody(task);
  if ('error' in out) return out;
  const buffers = [out.answer.buffer, out.logLines.buffer, out.spans.buffer, out.points.buffer].filter((b, i, all) => b instanceof ArrayBuffer && b.byteLength > 0 && all.indexOf(b) === i);
  return move({ [transferableSymbol]: buffers, [valueSymbol]: out } as never) as unknown as LabelledBody;
}
