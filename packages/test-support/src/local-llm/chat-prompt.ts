/**
 * The prompt text of a chat request, in ChatML (the tiny model's `tokenizer.chat_template`): the
 * tools are described in the system turn, and earlier tool calls are written in the same JSON the
 * grammar makes the model write, so the transcript reads as the model's own.
 *
 * @module
 */
import { TURN_END_TEXT, TURN_START_TEXT } from './byte-vocabulary.js';
import type { ChatMessage, ChatTool } from './chat-request.js';

function turn(role: string, content: string): string {
  return `${TURN_START_TEXT}${role}\n${content}${TURN_END_TEXT}\n`;
}

function toolsSection(tools: readonly ChatTool[]): string {
  const lines = tools.map((tool) =>
    JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }),
  );
  return [
    '# Tools',
    '',
    'Answer with JSON: {"content": "your answer"} or {"tool_calls": [{"name": "<function>", "arguments": {...}}]}.',
    'The functions:',
    '<tools>',
    ...lines,
    '</tools>',
  ].join('\n');
}

function assistantText(message: ChatMessage, toolsOffered: boolean): string {
  if (message.toolCalls.length === 0) return toolsOffered ? JSON.stringify({ content: message.content }) : message.content;
  const calls = message.toolCalls.map((call) => {
    let args: unknown;
    try {
      args = JSON.parse(call.arguments);
    } catch {
      args = call.arguments;
    }
    return { name: call.name, arguments: args };
  });
  return JSON.stringify({ tool_calls: calls });
}

/**
 * Render the conversation, ending with the open assistant turn the model completes.
 *
 * @param messages - the request's messages
 * @param tools - the tools to describe (empty when none are offered)
 */
export function chatPrompt(messages: readonly ChatMessage[], tools: readonly ChatTool[]): string {
  const parts: string[] = [];
  const first = messages[0];
  const systemFirst = first !== undefined && first.role === 'system';
  if (tools.length > 0) {
    parts.push(turn('system', systemFirst ? `${first.content}\n\n${toolsSection(tools)}` : toolsSection(tools)));
  } else if (systemFirst) {
    parts.push(turn('system', first.content));
  }
  for (const message of systemFirst ? messages.slice(1) : messages) {
    parts.push(turn(message.role, message.role === 'assistant' ? assistantText(message, tools.length > 0) : message.content));
  }
  parts.push(`${TURN_START_TEXT}assistant\n`);
  return parts.join('');
}
