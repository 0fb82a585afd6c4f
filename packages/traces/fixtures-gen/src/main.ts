/**
 * Generate every framework's fixtures: `pnpm generate` (or `pnpm generate openai-agents …` for
 * some). With more than one generator wanted, each runs in a process of its own: some register
 * global OpenTelemetry state (a tracer provider, LangSmith's `initializeOTEL`) that the next one
 * must not inherit.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateAiSdk } from './ai-sdk.js';
import { generateLangChain } from './langchain.js';
import { generateLangSmith } from './langsmith.js';
import { generateLangSmithOtel } from './langsmith-otel.js';
import { generateMastra } from './mastra.js';
import { generateOpenAiAgents } from './openai-agents.js';

const generators: Record<string, () => Promise<void>> = {
  'openai-agents': generateOpenAiAgents,
  'ai-sdk': generateAiSdk,
  mastra: generateMastra,
  langchain: generateLangChain,
  langsmith: generateLangSmith,
  'langsmith-otel': generateLangSmithOtel,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !Object.hasOwn(generators, name));
if (unknown.length > 0) throw new Error(`unknown generator(s) ${unknown.join(', ')}; one of ${Object.keys(generators).join(', ')}`);
const names = Object.keys(generators).filter((name) => wanted.length === 0 || wanted.includes(name));
if (names.length === 1) {
  console.error(`generating ${names[0]}`);
  await (generators[names[0] as string] as () => Promise<void>)();
} else {
  for (const name of names) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`generator ${name} failed (exit ${child.status})`);
  }
}
