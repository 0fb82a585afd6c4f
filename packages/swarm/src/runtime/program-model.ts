/**
 * A program in the seat of a language model: the one hand-built AI SDK `LanguageModelV3` of the
 * swarm (provider `parl`), which the scripted look-up sub-agents, the scripted orchestrators and
 * `SwarmAgent`'s `generate()` / `stream()` all are. The program gives a reply's content (or a
 * stream of parts); the model adds the rest of what the interface asks (finish reason, usage,
 * warnings) and honours the call's abort signal.
 *
 * @module
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/** What a program does: answer a call with content, or with a stream of parts (or both). */
export interface ModelProgram {
  /** The content of the reply to a call. */
  readonly generate?: (options: LanguageModelV3CallOptions) => readonly LanguageModelV3Content[] | PromiseLike<readonly LanguageModelV3Content[]>;
  /** The parts of the streamed reply to a call. */
  readonly stream?: (options: LanguageModelV3CallOptions) => ReadableStream<LanguageModelV3StreamPart>;
  /** The usage it reports: `zero` (it used no tokens) or `unknown` (it does not count them). Default `zero`. */
  readonly usage?: 'zero' | 'unknown';
}

const ZERO_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** The usage of a program that does not count tokens. */
export const UNKNOWN_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** A program as a `LanguageModelV3` (provider `parl`). */
export class ProgramModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'parl';
  readonly supportedUrls = {};

  /**
   * @param modelId - the model id spans and records name it by
   * @param program - what it answers
   */
  constructor(
    readonly modelId: string,
    private readonly program: ModelProgram,
  ) {}

  /** The usage it reports. */
  get usage(): LanguageModelV3Usage {
    return this.program.usage === 'unknown' ? UNKNOWN_USAGE : ZERO_USAGE;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    options.abortSignal?.throwIfAborted();
    if (this.program.generate === undefined) throw new Error(`${this.modelId} answers doStream only`);
    const content = [...(await this.program.generate(options))];
    const calls = content.some((p) => p.type === 'tool-call');
    return { content, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined }, usage: this.usage, warnings: [] };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    options.abortSignal?.throwIfAborted();
    if (this.program.stream === undefined) throw new Error(`${this.modelId} answers doGenerate only`);
    return { stream: this.program.stream(options) };
  }
}
