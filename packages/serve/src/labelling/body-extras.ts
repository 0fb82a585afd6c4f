/**
 * What `parl serve` derives from a labelled `/v1/rewards` body besides the answer, computed on
 * the labelling thread by `@parl/io`'s engine (this module is named to its pool; built as
 * `dist/body-extras.js`): each record's dashboard point, packed, and the episode-log lines of the
 * records with an `id`.
 *
 * @module
 */
import type { BodyExtras, LabelledAnswer } from '@parl/io';
import { episodePoint } from '../dashboard/live-stats.js';
import { rewardLogHead } from '../episodes/log-entry.js';
import { packPoint, POINT_WIDTH } from '../internal/packed-points.js';

/**
 * The log lines of the records with an id (the bytes of `rewardLogLine(id, json)` for each: its
 * head, the record's JSON copied from the answer's bytes rather than encoded again, `}\n`).
 */
export function encodeLogLines({ ids, answer, spans }: LabelledAnswer): Uint8Array {
  if (ids.length === 0) return new Uint8Array(0);
  const heads = ids.map(rewardLogHead);
  let total = 0;
  for (let i = 0; i < ids.length; i++) total += Buffer.byteLength(heads[i] as string, 'utf8') + ((spans[2 * i + 1] as number) - (spans[2 * i] as number)) + 2;
  const out = Buffer.allocUnsafeSlow(total);
  const from = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  let at = 0;
  for (let i = 0; i < ids.length; i++) {
    at += out.write(heads[i] as string, at, 'utf8');
    at += from.copy(out, at, spans[2 * i], spans[2 * i + 1]);
    out[at++] = 0x7d; // }
    out[at++] = 0x0a; // \n
  }
  return new Uint8Array(out.buffer, 0, at);
}

/** The dashboard points (numbers) and episode-log lines (bytes) of a labelled body. */
export const bodyExtras: BodyExtras = {
  width: POINT_WIDTH,
  numbers: (labelled, into, i) => packPoint(into, i, episodePoint(labelled)),
  bytes: encodeLogLines,
};
