import { ParlInputError } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { hermesToolParser } from '../../src/tokens/parsers/hermes-tool-parser.js';
import { kimiK2ToolParser } from '../../src/tokens/parsers/kimi-k2-tool-parser.js';
import { REASONING_PARSER_NAMES, TOOL_CALL_PARSER_NAMES } from '../../src/tokens/parsers/parser-names.js';
import { REASONING_PARSERS, reasoningParserNamed, TOOL_CALL_PARSERS, toolCallParserNamed } from '../../src/tokens/parsers/parser-registry.js';
import { qwen3ReasoningParser } from '../../src/tokens/parsers/qwen3-reasoning-parser.js';

describe('hermes', () => {
  it('reads several <tool_call> blocks; the text before the first is the content', () => {
    const text = 'Two look-ups.\n<tool_call>\n{"name":"assign_task","arguments":{"agent":"a","prompt":"x"}}\n</tool_call>\n<tool_call>\n{"name": "assign_task", "arguments": {"agent": "b", "prompt": "y"}}\n</tool_call>';
    const out = hermesToolParser.parse(text, 3);
    expect(out.content).toBe('Two look-ups.\n');
    expect(out.calls).toEqual([
      { id: 'call_3_0', name: 'assign_task', input: { agent: 'a', prompt: 'x' }, invalid: undefined, arguments: '{"agent":"a","prompt":"x"}' },
      { id: 'call_3_1', name: 'assign_task', input: { agent: 'b', prompt: 'y' }, invalid: undefined, arguments: '{"agent":"b","prompt":"y"}' },
    ]);
  });

  it('text without a call is the answer', () => {
    expect(hermesToolParser.parse('The answer is 42.', 0)).toEqual({ content: 'The answer is 42.', calls: [] });
  });

  it('a block that is not JSON, or names no tool, is a malformed call; an unclosed last block is still read', () => {
    const out = hermesToolParser.parse('<tool_call>{"name": "look_up", "arguments": {"q": </tool_call><tool_call>{"arguments": {}}</tool_call><tool_call>{"name":"x","arguments":{}}', 1);
    expect(out.calls.map((c) => [c.name, c.invalid === undefined])).toEqual([['look_up', false], ['', false], ['x', true]]);
    expect(out.calls[0]?.invalid).toMatch(/not JSON/);
    expect(out.calls[1]?.invalid).toMatch(/names no tool/);
  });
});

describe('kimi_k2', () => {
  const call = (id: string, args: string): string => `<|tool_call_begin|>${id}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;

  it('reads the calls of a tool-call section, ids as written, names from functions.NAME:INDEX', () => {
    const text = `Let me delegate.<|tool_calls_section_begin|>${call('functions.create_subagent:0', '{"name":"r","system_prompt":"s"}')}${call('functions.assign_task:1', ' {"agent":"r","prompt":"p"} ')}<|tool_calls_section_end|>`;
    const out = kimiK2ToolParser.parse(text, 0);
    expect(out.content).toBe('Let me delegate.');
    expect(out.calls).toEqual([
      { id: 'functions.create_subagent:0', name: 'create_subagent', input: { name: 'r', system_prompt: 's' }, invalid: undefined, arguments: '{"name":"r","system_prompt":"s"}' },
      { id: 'functions.assign_task:1', name: 'assign_task', input: { agent: 'r', prompt: 'p' }, invalid: undefined, arguments: '{"agent":"r","prompt":"p"}' },
    ]);
  });

  it('takes the singular section marker and ids without the functions. prefix', () => {
    const out = kimiK2ToolParser.parse(`<|tool_call_section_begin|>${call('look_up:0', '{"q":"x"}')}<|tool_call_section_end|>`, 0);
    expect(out.calls.map((c) => [c.id, c.name])).toEqual([['look_up:0', 'look_up']]);
  });

  it('a call without its index or with arguments that are not JSON is malformed', () => {
    const out = kimiK2ToolParser.parse(`<|tool_calls_section_begin|>${call('functions.look_up', '{}')}${call('functions.look_up:1', '{"q": ')}<|tool_calls_section_end|>`, 2);
    expect(out.calls.map((c) => c.invalid !== undefined)).toEqual([true, true]);
    expect(out.calls[0]?.id).toBe('call_2_0');
    expect(out.calls[1]?.name).toBe('look_up');
  });

  it('text without a section is the answer', () => {
    expect(kimiK2ToolParser.parse('Paris.', 0)).toEqual({ content: 'Paris.', calls: [] });
  });
});

describe('qwen3 reasoning', () => {
  it('splits <think>…</think> off, with or without the opening tag in the completion', () => {
    expect(qwen3ReasoningParser.split('<think>\nhmm\n</think>\n\nParis.')).toEqual({ reasoning: '\nhmm\n', content: '\n\nParis.' });
    expect(qwen3ReasoningParser.split('hmm</think>Paris.')).toEqual({ reasoning: 'hmm', content: 'Paris.' });
    expect(qwen3ReasoningParser.split('Paris.')).toEqual({ reasoning: undefined, content: 'Paris.' });
  });
});

describe('the registry', () => {
  it('has one parser per name, and refuses an unknown name with its code', () => {
    expect(Object.keys(TOOL_CALL_PARSERS)).toEqual([...TOOL_CALL_PARSER_NAMES]);
    expect(Object.keys(REASONING_PARSERS)).toEqual([...REASONING_PARSER_NAMES]);
    expect(toolCallParserNamed('kimi_k2')).toBe(kimiK2ToolParser);
    expect(reasoningParserNamed('none').split('<think>x</think>y')).toEqual({ reasoning: undefined, content: '<think>x</think>y' });
    for (const bad of [() => toolCallParserNamed('mistral'), () => reasoningParserNamed('deepseek_r1')]) {
      expect(bad).toThrow(ParlInputError);
      try {
        bad();
      } catch (err) {
        expect((err as ParlInputError).code).toBe('PARL_ERR_UNKNOWN_NAME');
      }
    }
  });
});
