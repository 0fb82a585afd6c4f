/**
 * The stdio MCP message reader: lines however the stream cuts them, a line past the bound passed
 * over whatever its length (never held), and the id of such a message found at either end.
 */
import { describe, expect, it } from 'vitest';
import { droppedMessageId, MessageLines, type DroppedMessage } from '../src/tools/mcp-message-lines.js';

/** Feed `chunks` to a reader of at most `max` bytes a line: what it gave, in order. */
function read(chunks: readonly string[], max: number): (string | DroppedMessage)[] {
  const reader = new MessageLines(max);
  const out: (string | DroppedMessage)[] = [];
  for (const chunk of chunks) reader.push(Buffer.from(chunk), (line) => out.push(line), (dropped) => out.push(dropped));
  return out;
}

describe('MessageLines', () => {
  it('gives each line however the chunks cut it, without its CR; an unfinished line waits', () => {
    expect(read(['{"a":1}\n{"b"', ':2}\r\n', '', '{"c":3}\n{"d"'], 100)).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(read(['{"a":"é"}\n'], 100)).toEqual(['{"a":"é"}']);
  });

  it('passes over a line past the bound, keeping only its length and ends, and reads the next', () => {
    const long = `{"result":"${'x'.repeat(500)}","jsonrpc":"2.0","id":7}`;
    const chunks = [long.slice(0, 40), long.slice(40, 300), long.slice(300), '\n{"id":8}\n'];
    const out = read(chunks, 100);
    expect(out).toHaveLength(2);
    const dropped = out[0] as DroppedMessage;
    expect(dropped.bytes).toBe(long.length);
    expect(dropped.head).toBe(long.slice(0, 256));
    expect(dropped.tail).toBe(long.slice(-256));
    expect(droppedMessageId(dropped)).toBe(7);
    expect(out[1]).toBe('{"id":8}');
    // Past the bound in one chunk, with the next line in it too.
    expect(read([`${long}\n{"id":9}\n`], 100).map((x) => (typeof x === 'string' ? x : x.bytes))).toEqual([long.length, '{"id":9}']);
  });

  it('finds a top-level id first or last, never a nested one', () => {
    const message = (head: string, tail: string): DroppedMessage => ({ bytes: 1e8, head, tail });
    expect(droppedMessageId(message('{"jsonrpc":"2.0","id":"req-1","result":{"content":[', 'xx"}]}}'))).toBe('req-1');
    expect(droppedMessageId(message('{"result":{"content":[', '"}]},"jsonrpc":"2.0","id":3}'))).toBe(3);
    expect(droppedMessageId(message('{"result":{"id":5,"content":[', '"}],"id":6}}'))).toBeUndefined();
    expect(droppedMessageId(message('{"result":[', ']}'))).toBeUndefined();
  });
});
