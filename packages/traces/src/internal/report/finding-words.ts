/**
 * A serial-collapse finding (spec §7) said in words: the verdict, each pattern, and the critical
 * steps as run, if launched together and saved.
 *
 * @module
 */
import type { SerialCollapseFinding, SerialPattern } from '../../finding.js';
import { capText, escapeHtml, formatNumber, percent, plural } from './html-text.js';

/** Patterns described per trace at most; the rest are counted. */
export const MAX_PATTERNS_DESCRIBED = 8;
/** Agent names listed per pattern at most. */
const NAMES_LISTED = 6;
/** Characters of one agent name kept. */
const NAME_CHARS = 40;

function range(values: readonly number[]): string {
  const first = values[0];
  const last = values[values.length - 1];
  if (first === undefined || last === undefined) return '';
  return first === last ? String(first) : `${first}–${last}`;
}

function names(pattern: SerialPattern): string {
  const all = pattern.groups.flat().map((g) => capText(g.name, NAME_CHARS));
  if (all.length === 0) return '';
  const shown = all.slice(0, NAMES_LISTED).join(', ');
  return ` (${shown}${all.length > NAMES_LISTED ? `, and ${all.length - NAMES_LISTED} more` : ''})`;
}

const INDEPENDENCE_WORDS: Readonly<Record<SerialPattern['independence'], string>> = {
  likely: 'captured content shows no later input quoting an earlier output: independent work, launched one after another',
  unknown: 'no captured content to tell whether they depend on each other: the saving is an upper bound',
  dependent: 'a later input quotes an earlier output: dependent work, not counted as collapse',
};

/** One pattern in words (HTML). */
export function patternWords(pattern: SerialPattern, mark: string): string {
  const stages = pattern.stages.map((s) => s + 1);
  const where = pattern.within.length === 0 ? '' : ` inside sub-agent ${escapeHtml(pattern.within.map((n) => capText(n.name, NAME_CHARS)).slice(0, NAMES_LISTED).join(' › '))} (its own turns and stages; not marked on the timeline)`;
  const what =
    pattern.kind === 'waves'
      ? `<b>waves</b>: turn ${range(pattern.turns)} launched ${plural(pattern.groups.flat().length, 'sub-agent')}${escapeHtml(names(pattern))} that ran in ${pattern.groups.length} waves one after another, later ones waiting for earlier ones to end (stage ${range(stages)})`
      : `<b>one per turn</b>: turns ${range(pattern.turns)} each launched one sub-agent or did the work itself${escapeHtml(names(pattern))} (stages ${range(stages)})`;
  return `<li><span class="mark">${escapeHtml(mark)}</span> ${what}${where}; independence <b>${pattern.independence}</b> — ${INDEPENDENCE_WORDS[pattern.independence]}. Launched together alone it would save ${plural(pattern.critical_steps_saved, 'critical step')}.</li>`;
}

/** Why a finding without patterns has none, given how many sub-agents the record ran (undefined: not known). */
function noPatternWords(subagents: number | undefined): string {
  if (subagents === 0) return 'No sub-agent ran: the orchestrator did the work itself, with no turn that launched one sub-agent at a time.';
  if (subagents === undefined) return 'No turn ran its work one piece after another.';
  return 'Sub-agents launched together ran together.';
}

/**
 * The verdict line and the pattern list of a finding (HTML).
 *
 * @param subagents - the sub-agents the record ran (top level), when known: the verdict without a
 *   pattern says that sub-agents ran together only when some did
 */
export function findingWords(finding: SerialCollapseFinding, unit: string, subagents?: number): string {
  const verdict = finding.serial_collapse
    ? `<p class="verdict bad"><b>Serial collapse.</b> Work that could run in parallel ran one piece after another.</p>`
    : finding.patterns.length > 0
      ? `<p class="verdict ok"><b>No serial collapse.</b> Every serial pattern is dependent work.</p>`
      : `<p class="verdict ok"><b>No serial pattern.</b> ${noPatternWords(subagents)}</p>`;
  const numbers = `<p class="nums">As run: <b>${formatNumber(finding.critical_steps_as_run)}</b> ${unit} · if launched together: <b>${formatNumber(finding.critical_steps_if_parallel)}</b> · saved: <b>${formatNumber(finding.critical_steps_saved)}</b> (${percent(finding.critical_steps_saved, finding.critical_steps_as_run)})</p>`;
  const described = finding.patterns.slice(0, MAX_PATTERNS_DESCRIBED).map((p, i) => patternWords(p, String(i + 1)));
  const more = finding.patterns.length > MAX_PATTERNS_DESCRIBED ? `<li>and ${finding.patterns.length - MAX_PATTERNS_DESCRIBED} more patterns (in the findings file).</li>` : '';
  return `${verdict}${numbers}${described.length > 0 ? `<ol class="pats">${described.join('')}${more}</ol>` : ''}`;
}
