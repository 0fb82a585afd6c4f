/**
 * `scripted` sub-agents: a frozen program in the seat of a language model (an AI SDK
 * `LanguageModelV3`), so that an orchestrator can be evaluated paying only for its own calls.
 * It does the look-ups its prompt asks for with the suites' `search` and `open` tools:
 *
 * 1. `search` with its prompt as the query;
 * 2. `open` every document found (one call each, all in one reply);
 * 3. answer with an `entity | attribute | value` line for every attribute its prompt names.
 *
 * Three model calls (steps) when something is found, two when nothing is.
 *
 * @module
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { ProgramModel } from './program-model.js';

function textOf(prompt: LanguageModelV3Prompt, role: 'user'): string {
  const message = prompt.find((m) => m.role === role);
  if (message === undefined || message.role !== 'user') return '';
  return message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

function toolOutputs(prompt: LanguageModelV3Prompt): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const o = part.output;
      out.push({ name: part.toolName, text: o.type === 'text' || o.type === 'error-text' ? o.value : JSON.stringify(o) });
    }
  }
  return out;
}

/** The frozen look-up program as a language model (provider `parl`, model id `scripted-lookup`). */
export class ScriptedLookupModel extends ProgramModel {
  private calls = 0;

  constructor() {
    super('scripted-lookup', { generate: (options) => this.reply(options) });
  }

  /** Its reply to a call (what `doGenerate` answers). */
  reply(options: LanguageModelV3CallOptions): LanguageModelV3Content[] {
    const n = this.calls++;
    const prompt = textOf(options.prompt, 'user');
    const outputs = toolOutputs(options.prompt);
    const opened = outputs.filter((o) => o.name === 'open');
    const searched = outputs.filter((o) => o.name === 'search');
    if (searched.length === 0) {
      return [{ type: 'tool-call', toolCallId: `s${n}`, toolName: 'search', input: JSON.stringify({ query: prompt }) }];
    }
    if (opened.length === 0) {
      const ids = [...(searched[searched.length - 1]?.text ?? '').matchAll(/^(doc-\d+):/gm)].map((m) => m[1] as string);
      if (ids.length > 0) {
        return ids.map((id, i) => ({ type: 'tool-call', toolCallId: `o${n}-${i}`, toolName: 'open', input: JSON.stringify({ id }) }));
      }
      return [{ type: 'text', text: 'nothing found' }];
    }
    const asked = prompt.toLowerCase();
    const lines: string[] = [];
    for (const doc of opened) {
      const [title, ...rest] = doc.text.split('\n');
      const entity = (title ?? '').replace(/^doc-\d+:\s*/, '');
      for (const line of rest) {
        const at = line.indexOf(': ');
        if (at <= 0) continue;
        const attribute = line.slice(0, at);
        if (new RegExp(`\\b${attribute}\\b`).test(asked)) lines.push(`${entity} | ${attribute} | ${line.slice(at + 2)}`);
      }
    }
    return [{ type: 'text', text: lines.length === 0 ? 'nothing found' : lines.join('\n') }];
  }
}

/** A new scripted look-up model (the `--subagents scripted` setting). */
export function scriptedLookupModel(): LanguageModelV3 {
  return new ScriptedLookupModel();
}
