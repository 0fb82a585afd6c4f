/**
 * Scripted orchestrators: fixed policies in the seat of the orchestrator's language model (AI SDK
 * `LanguageModelV3`s), so that `parl swarm run|eval --model scripted:parallel` shows the swarm at
 * work with no endpoint at all. Each reads the suites' prompts (`wide`: "for each of the entities
 * A, B, give its x, y."; `deep`: "Start at A … N steps in all. What is the x …") and the tool
 * results in its conversation, and decides its next reply from them alone (no hidden state: the
 * same conversation gives the same reply).
 *
 * | policy | `wide` task of n entities | `deep` task |
 * | --- | --- | --- |
 * | `parallel` | one turn: n sub-agents defined and assigned an entity each, run together; then the answer | follows the chain itself (parallelism cannot help) |
 * | `serial` | one sub-agent per turn, n turns (serial collapse: spec §1, §7's `one_per_turn`) | follows the chain itself |
 * | `spurious` | 2n sub-agents each given the whole task (spurious parallelism: no decomposition) | 2·hops sub-agents given the whole task, then the chain itself |
 * | `single` | never delegates: a `search` then an `open` per entity, one tool call per turn | follows the chain itself |
 *
 * Without `assign_task` among its tools (the single-agent baseline of `parl swarm eval`) every
 * policy acts as `single`. A prompt that is neither suite's is delegated whole to one sub-agent
 * (`single`: looked up directly, as the scripted look-up sub-agent does).
 *
 * @module
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { ProgramModel } from './program-model.js';
import type { ScriptedPolicy } from './scripted-names.js';
import { ScriptedLookupModel } from './scripted-model.js';

/** The system prompt the scripted orchestrators give their sub-agents. */
export const SCRIPTED_WORKER_PROMPT = 'You look facts up in the corpus with search and open, and answer with one line per value: entity | attribute | value.';

/** One tool call of the conversation, with its result once there is one. */
interface PastCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  result: string | undefined;
}

/** What the conversation so far holds: the task, and each of the orchestrator's turns with its calls. */
interface History {
  readonly task: string;
  readonly turns: readonly (readonly PastCall[])[];
}

function historyOf(prompt: LanguageModelV3Prompt): History {
  let task = '';
  const turns: PastCall[][] = [];
  const byId = new Map<string, PastCall>();
  for (const message of prompt) {
    if (message.role === 'user' && task === '') task = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    if (message.role === 'assistant') {
      const calls: PastCall[] = [];
      for (const part of message.content) {
        if (part.type !== 'tool-call') continue;
        const input = typeof part.input === 'string' ? parseObject(part.input) : (part.input as Record<string, unknown>);
        const call: PastCall = { name: part.toolName, input, result: undefined };
        byId.set(part.toolCallId, call);
        calls.push(call);
      }
      turns.push(calls);
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const call = byId.get(part.toolCallId);
        const o = part.output;
        if (call !== undefined) call.result = o.type === 'text' || o.type === 'error-text' ? o.value : JSON.stringify(o);
      }
    }
  }
  return { task, turns };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A `wide` task: the entities and the attributes to give. */
interface WideTask {
  readonly kind: 'wide';
  readonly entities: readonly string[];
  readonly attributes: readonly string[];
}

/** A `deep` task: the start, the hops and the attribute asked of the entity reached. */
interface DeepTask {
  readonly kind: 'deep';
  readonly start: string;
  readonly hops: number;
  readonly attribute: string;
}

/** The task a suite prompt states, or undefined for any other prompt. */
function parseTask(prompt: string): WideTask | DeepTask | undefined {
  const wide = /for each of the entities (.+?), give its (.+?)\. /.exec(prompt);
  if (wide !== null) return { kind: 'wide', entities: (wide[1] as string).split(', '), attributes: (wide[2] as string).split(', ') };
  const deep = /Start at (.+?)\. Take its successor.*?: (\d+) steps in all\. What is the (\w+) of the entity you reach\?/.exec(prompt);
  if (deep !== null) return { kind: 'deep', start: deep[1] as string, hops: Number(deep[2]), attribute: deep[3] as string };
  return undefined;
}

/** The `entity | attribute | value` lines of an opened document for the attributes asked. */
function linesOf(documentText: string, attributes: readonly string[]): string[] {
  const [title, ...rest] = documentText.split('\n');
  const entity = (title ?? '').replace(/^doc-\d+:\s*/, '');
  const lines: string[] = [];
  for (const line of rest) {
    const at = line.indexOf(': ');
    if (at > 0 && attributes.includes(line.slice(0, at))) lines.push(`${entity} | ${line.slice(0, at)} | ${line.slice(at + 2)}`);
  }
  return lines;
}

/** The value of an attribute in an opened document. */
function attributeOf(documentText: string, attribute: string): string | undefined {
  const line = documentText.split('\n').find((l) => l.startsWith(`${attribute}: `));
  return line?.slice(attribute.length + 2);
}

/** The document id `search` gave for exactly this entity. */
function documentIdFor(searchResult: string, entity: string): string | undefined {
  for (const line of searchResult.split('\n')) {
    const m = /^(doc-\d+): (.*)$/.exec(line);
    if (m !== null && (m[2] as string).toLowerCase() === entity.toLowerCase()) return m[1];
  }
  return undefined;
}

type Step = { readonly calls: readonly (readonly [name: string, input: Record<string, string>])[] } | { readonly answer: string };

const call = (name: string, input: Record<string, string>): Step => ({ calls: [[name, input]] });

/** The results of every `assign_task` call so far that answered, in order. */
function delegatedLines(history: History): string {
  return history.turns
    .flat()
    .filter((c) => c.name === 'assign_task' && c.result !== undefined && !c.result.startsWith('error'))
    .map((c) => c.result as string)
    .join('\n');
}

/** The opened documents' texts, in order. */
function opened(history: History): string[] {
  return history.turns.flat().filter((c) => c.name === 'open' && c.result !== undefined && !c.result.startsWith('error')).map((c) => c.result as string);
}

/** `wide` by the orchestrator itself, one tool call per turn: a `search`, then an `open`, per entity; then the answer. */
function wideAlone(history: History, task: WideTask): Step {
  const last = history.turns.at(-1)?.[0];
  if (last?.name === 'search') {
    const id = documentIdFor(last.result ?? '', String(last.input['query']));
    if (id !== undefined) return call('open', { id });
  }
  // A search that found nothing moves on to the next entity.
  const next = task.entities[history.turns.filter((t) => t[0]?.name === 'search').length];
  if (next !== undefined) return call('search', { query: next });
  return { answer: opened(history).flatMap((d) => linesOf(d, task.attributes)).join('\n') };
}

/** `deep` by the orchestrator itself: search, open, read the successor, and again, `hops` times. */
function deepAlone(history: History, task: DeepTask): Step {
  const docs = opened(history);
  const last = history.turns.at(-1)?.[0];
  if (last?.name === 'search') {
    const id = documentIdFor(last.result ?? '', String(last.input['query']));
    if (id !== undefined) return call('open', { id });
    return { answer: 'not found' };
  }
  const reached = docs.at(-1);
  if (docs.length === task.hops + 1 && reached !== undefined) {
    const entity = (reached.split('\n')[0] ?? '').replace(/^doc-\d+:\s*/, '');
    return { answer: `${entity} | ${task.attribute} | ${attributeOf(reached, task.attribute) ?? 'unknown'}` };
  }
  const current = reached === undefined ? task.start : attributeOf(reached, 'successor');
  return current === undefined ? { answer: 'not found' } : call('search', { query: current });
}

function define(name: string): readonly [string, Record<string, string>] {
  return ['create_subagent', { name, system_prompt: SCRIPTED_WORKER_PROMPT }];
}

function assign(agent: string, prompt: string): readonly [string, Record<string, string>] {
  return ['assign_task', { agent, prompt }];
}

/** The next reply of a policy. */
function decide(policy: ScriptedPolicy, history: History, canDelegate: boolean): Step | 'lookup' {
  const task = parseTask(history.task);
  const t = history.turns.length;
  const delegates = canDelegate && policy !== 'single';
  if (task === undefined) {
    if (!delegates) return 'lookup';
    return t === 0 ? { calls: [define('worker-1'), assign('worker-1', history.task)] } : { answer: delegatedLines(history) };
  }
  if (task.kind === 'deep') {
    if (delegates && policy === 'spurious') {
      if (t === 0) {
        const names = Array.from({ length: 2 * task.hops }, (_, i) => `worker-${i + 1}`);
        return { calls: [...names.map(define), ...names.map((n) => assign(n, history.task))] };
      }
      return deepAlone({ task: history.task, turns: history.turns.slice(1) }, task);
    }
    return deepAlone(history, task);
  }
  if (!delegates) return wideAlone(history, task);
  const given = task.attributes.join(', ');
  const prompts = task.entities.map((e) => `Find ${e}: give its ${given}.`);
  if (policy === 'parallel') {
    if (t > 0) return { answer: delegatedLines(history) };
    const names = prompts.map((_, i) => `worker-${i + 1}`);
    return { calls: [...names.map(define), ...names.map((n, i) => assign(n, prompts[i] as string))] };
  }
  if (policy === 'serial') {
    const prompt = prompts[t];
    return prompt === undefined ? { answer: delegatedLines(history) } : { calls: [define(`worker-${t + 1}`), assign(`worker-${t + 1}`, prompt)] };
  }
  // spurious: twice as many sub-agents as entities, each given the whole task.
  if (t > 0) return { answer: delegatedLines(history) };
  const names = Array.from({ length: 2 * task.entities.length }, (_, i) => `worker-${i + 1}`);
  return { calls: [...names.map(define), ...names.map((n) => assign(n, history.task))] };
}

/** A scripted orchestrator as a language model (provider `parl`, model id `scripted-<policy>`). */
export class ScriptedOrchestratorModel extends ProgramModel {
  private readonly lookup = new ScriptedLookupModel();

  /** @param policy - which policy it plays (see the module's table) */
  constructor(readonly policy: ScriptedPolicy) {
    super(`scripted-${policy}`, { generate: (options) => this.reply(options) });
  }

  /** Its reply to a call (what `doGenerate` answers). */
  reply(options: LanguageModelV3CallOptions): LanguageModelV3Content[] {
    const canDelegate = (options.tools ?? []).some((t) => t.name === 'assign_task');
    const history = historyOf(options.prompt);
    const step = decide(this.policy, history, canDelegate);
    if (step === 'lookup') return this.lookup.reply(options);
    if ('answer' in step) return [{ type: 'text', text: step.answer }];
    const turn = history.turns.length;
    return step.calls.map(([toolName, input], i) => ({ type: 'tool-call', toolCallId: `t${turn}-${i}`, toolName, input: JSON.stringify(input) }));
  }
}

/**
 * A scripted orchestrator (the `--model scripted:<policy>` setting). Pair it with
 * `scriptedLookupModel()` sub-agents to run with no endpoint at all.
 */
export function scriptedOrchestrator(policy: ScriptedPolicy): LanguageModelV3 {
  return new ScriptedOrchestratorModel(policy);
}
