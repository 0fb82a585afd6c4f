import { defineOptionTable, integerOptionIn, switchOption, textOption } from '@parl/core';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addOptionFlags, givenFlagTexts, optionsFromFlags } from '../src/internal/option-flags.js';
import { parl } from './support/memory-io.js';

interface Demo {
  readonly port?: number;
  readonly log?: string;
  readonly noLog?: boolean;
}

const DEMO = defineOptionTable<Demo>({
  port: { flag: 'port', arg: 'n', parse: integerOptionIn(0, 65535), default: 4318, help: 'port to listen on' },
  log: { flag: 'log', arg: 'file', parse: textOption, default: 'episodes.jsonl', help: 'the log' },
  noLog: { flag: 'no-log', parse: switchOption, help: 'keep no log' },
});

/** Parse `args` with a command holding DEMO's flags; the config its action resolved. */
function resolved(args: readonly string[]): { config: Demo; given: Record<string, string> } {
  let out: { config: Demo; given: Record<string, string> } | undefined;
  const cmd = addOptionFlags(new Command('demo').exitOverride().configureOutput({ writeErr: () => {} }), DEMO).action((_flags: unknown, c: Command) => {
    out = { config: optionsFromFlags(c, DEMO), given: givenFlagTexts(c, DEMO) };
  });
  cmd.parse([...args], { from: 'user' });
  if (out === undefined) throw new Error('the action did not run');
  return out;
}

describe('flags built from an option table', () => {
  it('print each default from the row, after the help', () => {
    const help = addOptionFlags(new Command('demo'), DEMO).helpInformation();
    expect(help).toMatch(/--port <n> +port to listen on \(default: 4318\)\n/);
    expect(help).toMatch(/--no-log +keep no log\n/);
  });

  it('resolve the typed config: defaults, given texts, a --log FILE and a --no-log that share a value', () => {
    expect(resolved([]).config).toEqual({ port: 4318, log: 'episodes.jsonl' });
    expect(resolved(['--port', '0', '--log', 'x.jsonl'])).toEqual({ config: { port: 0, log: 'x.jsonl' }, given: { port: '0', log: 'x.jsonl' } });
    expect(resolved(['--no-log']).config).toEqual({ port: 4318, log: 'episodes.jsonl', noLog: true });
  });

  it('reject a value the row rejects as a usage error naming the flag, the value and the range', () => {
    expect(() => resolved(['--port', '99999'])).toThrow("option '--port <n>' argument '99999' is invalid. Expected a decimal integer from 0 to 65535.");
  });
});

describe('parl serve --port', () => {
  it('out of range or fractional is one line naming --port, the value and the range (exit code 2)', async () => {
    for (const port of ['99999', '1.5', '-1']) {
      const r = await parl(['serve', '--port', port, '--no-log']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: option '--port <n>' argument '${port}' is invalid. Expected a decimal integer from 0 to 65535.\n`);
    }
  });

  it('a misspelt flag is named with the closest one, as for every command', async () => {
    const r = await parl(['serve', '--prot', '80']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '--prot'");
    expect(r.stderr).toContain('(Did you mean --port?)');
  });
});
