/** Generate every framework's fixtures: `pnpm generate` (or `pnpm generate openai-agents …` for some). */
import { generateAiSdk } from './ai-sdk.js';
import { generateLangChain } from './langchain.js';
import { generateLangSmith } from './langsmith.js';
import { generateMastra } from './mastra.js';
import { generateOpenAiAgents } from './openai-agents.js';

const generators: Record<string, () => Promise<void>> = {
  'openai-agents': generateOpenAiAgents,
  'ai-sdk': generateAiSdk,
  mastra: generateMastra,
  langchain: generateLangChain,
  langsmith: generateLangSmith,
};

const wanted = process.argv.slice(2);
for (const [name, generate] of Object.entries(generators)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.error(`generating ${name}`);
  await generate();
}
