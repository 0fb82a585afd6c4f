/**
 * A loopback OpenAI-compatible endpoint (`POST /v1/chat/completions`, `POST /v1/completions` on
 * token ids as vLLM serves token in, `GET /v1/models`) serving a
 * GGUF model with node-llama-cpp on the CPU: real inference over real HTTP, for tests that drive a
 * provider package (`@ai-sdk/openai-compatible`) the way it talks to vLLM or llama.cpp's server.
 * Fastify (already in the workspace for `@parl/serve`) gives the body-size bound, JSON parsing and
 * a close that ends idle connections.
 *
 * @module
 */
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyReply } from 'fastify';
import { getLlama, LlamaLogLevel, type Llama, type LlamaContextSequence } from 'node-llama-cpp';
import { ChatRequestError } from './chat-request-error.js';
import { parseChatRequest } from './chat-request.js';
import { prepareCompletion, runCompletion, type CompletionEngine, type FinishReason } from './chat-completion.js';
import { parseTokenCompletionRequest, type TokenCompletionRequest } from './token-completion-request.js';
import { runTokenCompletion } from './token-completion.js';
import { GenerationSlots, SlotsBusyError } from './generation-slots.js';
import { checkGgufMetadata } from './gguf-metadata-check.js';

/** Options of {@link startLocalLlmServer}. */
export interface LocalLlmServerOptions {
  /** The GGUF model file (checked with `checkGgufMetadata` before it is loaded). */
  readonly modelPath: string;
  /** The model id `GET /v1/models` lists and responses name. Default: the file name without `.gguf`. */
  readonly modelName?: string;
  /** Generations decoded at once (context sequences). Default 2. */
  readonly concurrency?: number;
  /** Requests that may wait for a sequence; one more is answered 503. Default 16. */
  readonly maxQueued?: number;
  /** Tokens of context per sequence (prompt plus answer). Default: the model's `context_length`. */
  readonly contextSize?: number;
  /** Most tool calls one response may make when `parallel_tool_calls` is not false. Default 4. */
  readonly maxToolCalls?: number;
  /** Largest request body in bytes. Default 1 MiB. */
  readonly bodyLimitBytes?: number;
  /** Port on 127.0.0.1. Default 0 (a free one). */
  readonly port?: number;
  /**
   * A GBNF grammar for the `index`-th `/v1/completions` request (0-based), or undefined for free
   * text: a test forces tool calls in the format a parser reads (the model still samples every
   * token). Default: none.
   */
  readonly completionGrammar?: (index: number) => string | undefined;
  /** Told when a generation takes a sequence and begins, with its `performance.now()` time. */
  readonly onGenerationStart?: (startedAt: number) => void;
  /** Told when each generation ends (or is aborted), with `performance.now()` times. */
  readonly onGeneration?: (event: GenerationEvent) => void;
}

/** One generation, as {@link LocalLlmServerOptions.onGeneration} hears of it. */
export interface GenerationEvent {
  /** `performance.now()` when a sequence was taken and decoding began. */
  readonly startedAt: number;
  /** `performance.now()` when decoding ended. */
  readonly endedAt: number;
  readonly promptTokens: number;
  /** `aborted` when the client went away or the server closed first. */
  readonly outcome: FinishReason | 'aborted';
}

/** A running endpoint. */
export interface LocalLlmServer {
  /** `http://127.0.0.1:<port>/v1`: what `createOpenAICompatible({ baseURL })` takes. */
  readonly baseURL: string;
  /** The model id to ask for. */
  readonly modelName: string;
  /** Abort running generations, stop listening, and free the model and engine. */
  close(): Promise<void>;
}

function sendError(reply: FastifyReply, status: number, message: string, type: string, param: string | null): FastifyReply {
  return reply.code(status).send({ error: { message, type, param, code: null } });
}

/**
 * Start the endpoint: check the model file, load it (CPU, 1 thread, never building or downloading
 * llama.cpp), and listen on 127.0.0.1.
 *
 * @throws GgufMetadataError when the model file lacks metadata the engine needs; RangeError for an
 *   option out of range (both before anything is loaded)
 */
export async function startLocalLlmServer(options: LocalLlmServerOptions): Promise<LocalLlmServer> {
  const concurrency = options.concurrency ?? 2;
  checkCount('concurrency', concurrency, 1, 64);
  checkCount('maxQueued', options.maxQueued, 0, 10_000);
  checkCount('maxToolCalls', options.maxToolCalls, 1, 64);
  checkCount('contextSize', options.contextSize, 64, 131_072);
  checkCount('bodyLimitBytes', options.bodyLimitBytes, 1024, 64 * 1024 * 1024);
  checkCount('port', options.port, 0, 65_535);
  await checkGgufMetadata(options.modelPath);
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  try {
    return await serve(options, llama, concurrency);
  } catch (error) {
    await llama.dispose();
    throw error;
  }
}

function checkCount(field: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
    throw new RangeError(`${field}: got ${value}, expected an integer from ${min} to ${max}`);
  }
}

async function serve(options: LocalLlmServerOptions, llama: Llama, concurrency: number): Promise<LocalLlmServer> {
  const model = await llama.loadModel({ modelPath: options.modelPath });
  const contextSize = options.contextSize ?? model.trainContextSize;
  const context = await model.createContext({ contextSize, sequences: concurrency, threads: 1 });
  const vocabularySize = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  const sequences: LlamaContextSequence[] = [];
  for (let i = 0; i < concurrency; i++) sequences.push(context.getSequence());
  const slots = new GenerationSlots(sequences, options.maxQueued ?? 16);
  const engine: CompletionEngine = {
    llama,
    model,
    maxToolCalls: options.maxToolCalls ?? 4,
    modelName: options.modelName ?? basename(options.modelPath).replace(/\.gguf$/i, ''),
  };
  const closing = new AbortController();
  const app = Fastify({ bodyLimit: options.bodyLimitBytes ?? 1024 * 1024, logger: false });

  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return sendError(reply, status, error.message, status < 500 ? 'invalid_request_error' : 'server_error', null);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `no route ${request.method} ${request.url}: this endpoint has POST /v1/chat/completions, POST /v1/completions and GET /v1/models`, 'invalid_request_error', null),
  );

  // once closing, every answer ends its connection, so a keep-alive client cannot hold close() open
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing.signal.aborted) reply.header('connection', 'close');
    return payload;
  });

  app.get('/v1/models', async () => ({
    object: 'list',
    data: [{ id: engine.modelName, object: 'model', created: 0, owned_by: 'parl-test-support' }],
  }));

  app.post('/v1/chat/completions', async (request, reply) => {
    const gone = new AbortController();
    const onClose = (): void => {
      if (!reply.raw.writableFinished) gone.abort(new Error('client disconnected'));
    };
    reply.raw.on('close', onClose);
    if (request.raw.socket.destroyed) gone.abort(new Error('client disconnected'));
    try {
      return await answer(request.body, reply, gone.signal);
    } finally {
      reply.raw.off('close', onClose);
    }
  });

  let completions = 0;
  app.post('/v1/completions', async (request, reply) => {
    const gone = new AbortController();
    const onClose = (): void => {
      if (!reply.raw.writableFinished) gone.abort(new Error('client disconnected'));
    };
    reply.raw.on('close', onClose);
    try {
      return await answerTokens(request.body, reply, gone.signal, completions++);
    } finally {
      reply.raw.off('close', onClose);
    }
  });

  async function answerTokens(requestBody: unknown, reply: FastifyReply, clientGone: AbortSignal, index: number): Promise<FastifyReply> {
    let parsed: TokenCompletionRequest;
    try {
      parsed = parseTokenCompletionRequest(requestBody, vocabularySize);
      if (parsed.model !== undefined && parsed.model !== engine.modelName) throw new ChatRequestError('model', parsed.model, `"${engine.modelName}", the model this endpoint serves`);
      if (parsed.prompt.length + parsed.maxTokens > contextSize) {
        throw new ChatRequestError('max_tokens', parsed.maxTokens, `at most ${contextSize - parsed.prompt.length} (context ${contextSize} less the ${parsed.prompt.length}-token prompt)`);
      }
    } catch (error) {
      if (error instanceof ChatRequestError) return sendError(reply, 400, error.message, 'invalid_request_error', error.field);
      throw error;
    }
    const gbnf = options.completionGrammar?.(index);
    const grammar = gbnf === undefined ? undefined : await llama.createGrammar({ grammar: gbnf });
    const signal = AbortSignal.any([clientGone, closing.signal]);
    let sequence: LlamaContextSequence;
    try {
      sequence = await slots.acquire(signal);
    } catch (error) {
      if (error instanceof SlotsBusyError) return sendError(reply, 503, `server busy: ${concurrency} generations running and ${error.message}; retry later`, 'server_error', null);
      return sendError(reply, 503, 'request abandoned before a sequence was free', 'server_error', null);
    }
    const startedAt = performance.now();
    options.onGenerationStart?.(startedAt);
    try {
      const body = await runTokenCompletion(engine, sequence, parsed, grammar, signal);
      options.onGeneration?.({ startedAt, endedAt: performance.now(), promptTokens: parsed.prompt.length, outcome: body.choices[0].finish_reason });
      return reply.send(body);
    } catch (error) {
      if (signal.aborted) {
        options.onGeneration?.({ startedAt, endedAt: performance.now(), promptTokens: parsed.prompt.length, outcome: 'aborted' });
        return sendError(reply, 503, 'generation aborted', 'server_error', null);
      }
      throw error;
    } finally {
      slots.release(sequence);
    }
  }

  async function answer(requestBody: unknown, reply: FastifyReply, clientGone: AbortSignal): Promise<FastifyReply> {
    let parsed;
    let prepared;
    try {
      parsed = parseChatRequest(requestBody, vocabularySize);
      if (parsed.model !== undefined && parsed.model !== engine.modelName) {
        throw new ChatRequestError('model', parsed.model, `"${engine.modelName}", the model this endpoint serves`);
      }
      prepared = await prepareCompletion(engine, parsed, contextSize);
    } catch (error) {
      if (error instanceof ChatRequestError) return sendError(reply, 400, error.message, 'invalid_request_error', error.field);
      throw error;
    }
    const signal = AbortSignal.any([clientGone, closing.signal]);
    let sequence: LlamaContextSequence;
    try {
      sequence = await slots.acquire(signal);
    } catch (error) {
      if (error instanceof SlotsBusyError) {
        return sendError(reply, 503, `server busy: ${concurrency} generations running and ${error.message}; retry later`, 'server_error', null);
      }
      return sendError(reply, 503, 'request abandoned before a sequence was free', 'server_error', null);
    }
    const startedAt = performance.now();
    options.onGenerationStart?.(startedAt);
    try {
      const body = await runCompletion(engine, sequence, parsed, prepared, signal);
      options.onGeneration?.({ startedAt, endedAt: performance.now(), promptTokens: prepared.promptTokens.length, outcome: body.choices[0].finish_reason });
      return reply.send(body);
    } catch (error) {
      if (signal.aborted) {
        options.onGeneration?.({ startedAt, endedAt: performance.now(), promptTokens: prepared.promptTokens.length, outcome: 'aborted' });
        return sendError(reply, 503, 'generation aborted', 'server_error', null);
      }
      throw error;
    } finally {
      slots.release(sequence);
    }
  }

  const address = await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  let closed: Promise<void> | undefined;
  return {
    baseURL: `${address}/v1`,
    modelName: engine.modelName,
    close() {
      closed ??= (async () => {
        closing.abort(new Error('server closing'));
        await app.close();
        await context.dispose();
        await model.dispose();
        await llama.dispose();
      })();
      return closed;
    },
  };
}
