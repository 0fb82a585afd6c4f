import { describe, expect, expectTypeOf, it } from 'vitest';
import { ParlInputError } from '../../src/errors.js';
import { choiceOption, integerOptionIn, nameListOption, nonNegativeDecimalOption, positiveDecimalOption, positiveIntegerOption, scheduleOption, switchOption, textOption } from '../../src/options/option-parsers.js';
import { defaultOf, defineOptionTable, optionRows, type OptionRow, type OptionsOf, type OptionTable, type ResolvedOptions } from '../../src/options/option-table.js';
import { optionsMarkdown, replaceBetweenMarkers } from '../../src/options/option-docs.js';
import { resolveOptions } from '../../src/options/resolve-options.js';
import { parseSchedule, type ScheduleSpec } from '../../src/schedules.js';

interface Demo {
  readonly maxSubagents?: number;
  readonly lambda1?: ScheduleSpec;
  readonly shape?: 'linear' | 'log';
  readonly strict?: boolean;
  readonly port: number;
  readonly out?: string;
}

const DEMO_ROWS = {
  maxSubagents: { flag: 'max-subagents', query: 'max-subagents', arg: 'n', parse: positiveDecimalOption, default: 100, help: 'saturation point of r_parallel' },
  lambda1: { flag: 'lambda1', query: 'lambda1', arg: 'schedule', parse: scheduleOption, defaultText: 'linear 0.1 → 0', help: 'λ1 | schedule' },
  shape: { flag: 'parallel-shape', query: 'parallel-shape', arg: 'shape', choices: ['linear', 'log'], parse: choiceOption(['linear', 'log'] as const), default: 'linear', help: 'shape of r_parallel' },
  strict: { flag: 'strict', query: 'strict', parse: switchOption, help: 'reject likely typos' },
  port: { flag: 'port', arg: 'n', parse: integerOptionIn(0, 65535), default: 4318, help: 'port' },
  out: { flag: 'out', arg: 'file', parse: textOption, help: 'write to FILE' },
} as const;

/** The table alone; its types are derived from it. */
const DEMO = defineOptionTable({ ...DEMO_ROWS, lambda1: { ...DEMO_ROWS.lambda1 }, shape: { ...DEMO_ROWS.shape, choices: ['linear', 'log'] } });

/** The same rows against a config type written by hand (the older form, still accepted). */
const DEMO_FOR_CONFIG = defineOptionTable<Demo>(DEMO_ROWS);

/** A table with a required row and a unit. */
const JOB = defineOptionTable({
  grid: { flag: 'grid', arg: 'file', parse: textOption, required: true, help: 'the grid file' },
  stalledAfter: { flag: 'stalled-after', arg: 'seconds', parse: positiveDecimalOption, default: 30, unit: 's', help: 'stall time' },
  threads: { flag: 'threads', arg: 'n', parse: positiveIntegerOption, help: 'threads' },
});

function thrown(fn: () => unknown): ParlInputError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ParlInputError) return err;
    throw err;
  }
  throw new Error('expected a ParlInputError');
}

describe('defineOptionTable', () => {
  it('derives the option types from the table: required rows required, defaulted rows always resolved', () => {
    expectTypeOf<OptionsOf<typeof JOB>>().toEqualTypeOf<{ readonly grid: string; readonly stalledAfter?: number; readonly threads?: number }>();
    expectTypeOf<ResolvedOptions<typeof JOB>>().toEqualTypeOf<{ readonly grid: string; readonly stalledAfter: number; readonly threads?: number }>();
    expectTypeOf<OptionsOf<typeof DEMO>>().toEqualTypeOf<{
      readonly maxSubagents?: number;
      readonly lambda1?: ScheduleSpec;
      readonly shape?: 'linear' | 'log';
      readonly strict?: boolean;
      readonly port?: number;
      readonly out?: string;
    }>();
    const compileOnly = (): void => {
      // @ts-expect-error: a default of another type than the row's parser returns
      defineOptionTable({ depth: { flag: 'depth', arg: 'n', parse: positiveIntegerOption, default: 'four', help: 'levels' } });
      // @ts-expect-error: a row needs its help
      defineOptionTable({ depth: { flag: 'depth', parse: positiveIntegerOption } });
    };
    expect(typeof compileOnly).toBe('function');
  });

  it('refuses a required row with a default', () => {
    const err = thrown(() => defineOptionTable({ grid: { flag: 'grid', arg: 'file', parse: textOption, required: true, default: 'g.json', help: 'the grid file' } }));
    expect(err.message).toBe('grid.default must be absent: a required option has no default, got "g.json"');
    expect(err.code).toBe('PARL_ERR_CONFLICT');
  });

  it('types a table against a config written by hand as exactly one row per config key: a missing or an extra row does not compile', () => {
    expectTypeOf(DEMO_FOR_CONFIG).toEqualTypeOf<OptionTable<Demo>>();
    expectTypeOf(DEMO_FOR_CONFIG.shape).toEqualTypeOf<OptionRow<'linear' | 'log'>>();
    expectTypeOf(DEMO.maxSubagents.parse).returns.toEqualTypeOf<number>();
    expectTypeOf<keyof OptionTable<Demo>>().toEqualTypeOf<keyof Demo>();
    // Checked by the compiler (`pnpm typecheck` runs tsc over the tests): each call below fails to
    // compile, and tsc fails if one of them compiles.
    const compileOnly = (): void => {
      const row = { flag: 'depth', arg: 'n', parse: positiveIntegerOption, help: 'levels' };
      // @ts-expect-error: the row of `width` is missing
      defineOptionTable<{ depth?: number; width?: number }>({ depth: row });
      // @ts-expect-error: `height` is not a key of the config
      defineOptionTable<{ depth?: number }>({ depth: row, height: { ...row, flag: 'height' } });
      // @ts-expect-error: the row parses text into a string where the config holds a number
      defineOptionTable<{ depth?: number }>({ depth: { ...row, parse: textOption } });
      // @ts-expect-error: a default of the wrong type
      defineOptionTable<{ depth?: number }>({ depth: { ...row, default: 'four' } });
      // @ts-expect-error: a row needs its help
      defineOptionTable<{ depth?: number }>({ depth: { flag: 'depth', parse: positiveIntegerOption } });
    };
    expect(typeof compileOnly).toBe('function');
  });

  it('rejects two rows with one flag or query name, and names that are not lower-case words', () => {
    const row = { flag: 'depth', query: 'depth', arg: 'n', parse: positiveIntegerOption, help: 'levels' };
    expect(thrown(() => defineOptionTable<{ a?: number; b?: number }>({ a: row, b: { ...row, query: 'b' } })).message).toBe(
      'b.flag must be a flag name no other row uses (a has it), got "depth"',
    );
    expect(thrown(() => defineOptionTable<{ a?: number; b?: number }>({ a: row, b: { ...row, flag: 'b' } })).code).toBe('PARL_ERR_CONFLICT');
    expect(thrown(() => defineOptionTable<{ a?: number }>({ a: { ...row, flag: '--depth' } })).field).toBe('a.flag');
  });

  it('keeps the declaration order and shows defaults from `default` or `defaultText`', () => {
    expect(optionRows(DEMO).map(([key]) => key)).toEqual(['maxSubagents', 'lambda1', 'shape', 'strict', 'port', 'out']);
    expect(defaultOf(DEMO.maxSubagents)).toBe('100');
    expect(defaultOf(DEMO.lambda1)).toBe('linear 0.1 → 0');
    expect(defaultOf(DEMO.out)).toBeUndefined();
    expect(defaultOf(JOB.stalledAfter)).toBe('30 s');
    expect(defaultOf({ flag: 'no-chart', parse: (t, f) => !switchOption(t, f), default: true, help: 'no chart' })).toBeUndefined();
    expect(defaultOf({ flag: 'x', arg: 'list', parse: nameListOption, default: ['id', 'r_perf'], help: 'x' })).toBe('["id","r_perf"]');
  });
});

describe('resolveOptions', () => {
  it('parses the texts given by flag name, fills defaults and leaves options without one absent', () => {
    const config = resolveOptions(DEMO, { 'max-subagents': '20', 'parallel-shape': 'log', strict: 'true', out: 'x.jsonl' }, 'flag');
    expect(config).toEqual({ maxSubagents: 20, shape: 'log', strict: true, port: 4318, out: 'x.jsonl' });
    expect('lambda1' in config).toBe(false);
    expectTypeOf(config.port).toEqualTypeOf<number>();
    expectTypeOf(config.out).toEqualTypeOf<string | undefined>();
  });

  it('refuses a required option that is not given, naming it as its source does', () => {
    const err = thrown(() => resolveOptions(JOB, { threads: '2' }, 'flag'));
    expect(err.message).toBe('--grid must be given (the option is required), got undefined (missing)');
    expect(err.code).toBe('PARL_ERR_MISSING_FIELD');
    expect(thrown(() => resolveOptions(JOB, {}, 'library')).field).toBe('options.grid');
    expect(resolveOptions(JOB, { grid: 'g.json' }, 'flag')).toEqual({ grid: 'g.json', stalledAfter: 30 });
  });

  it('refuses an option given without the option it needs, and a table whose row needs a key it lacks', () => {
    const QUEUE = defineOptionTable({
      queue: { flag: 'queue', arg: 'url', parse: textOption, help: 'the queue' },
      queueName: { flag: 'queue-name', arg: 'name', parse: textOption, needs: 'queue', help: "the queue's name" },
    });
    const err = thrown(() => resolveOptions(QUEUE, { 'queue-name': 'q' }, 'flag'));
    expect(err.message).toBe('--queue-name must be used with --queue, got "q"');
    expect(err.code).toBe('PARL_ERR_CONFLICT');
    expect(thrown(() => resolveOptions(QUEUE, { queueName: 'q' }, 'library')).message).toBe('options.queueName must be used with options.queue, got "q"');
    expect(resolveOptions(QUEUE, { queue: 'redis://x', 'queue-name': 'q' }, 'flag')).toEqual({ queue: 'redis://x', queueName: 'q' });
    expect(thrown(() => defineOptionTable({ queueName: { flag: 'queue-name', parse: textOption, needs: 'queue', help: 'name' } })).field).toBe('queueName.needs');
  });

  it('refuses two options that conflict given together, naming both, and a table whose row conflicts with a key it lacks', () => {
    const CLIENT = defineOptionTable({
      clientSecret: { flag: 'client-secret', arg: 'env:VAR', parse: textOption, help: 'the secret' },
      privateKey: { flag: 'private-key', arg: 'env:VAR', parse: textOption, conflicts: 'clientSecret', help: 'the key, instead of a secret' },
    });
    const err = thrown(() => resolveOptions(CLIENT, { 'client-secret': 'env:S', 'private-key': 'env:K' }, 'flag'));
    expect(err.message).toBe('--private-key must be given without --client-secret (not both), got "env:K"');
    expect(err.code).toBe('PARL_ERR_CONFLICT');
    expect(thrown(() => resolveOptions(CLIENT, { clientSecret: 'env:S', privateKey: 'env:K' }, 'library')).message).toBe(
      'options.privateKey must be given without options.clientSecret (not both), got "env:K"',
    );
    expect(resolveOptions(CLIENT, { 'private-key': 'env:K' }, 'flag')).toEqual({ privateKey: 'env:K' });
    expect(resolveOptions(CLIENT, { 'client-secret': 'env:S', 'private-key': undefined }, 'flag')).toEqual({ clientSecret: 'env:S' });
    expect(thrown(() => defineOptionTable({ privateKey: { flag: 'private-key', parse: textOption, conflicts: 'secret', help: 'key' } })).field).toBe('privateKey.conflicts');
    expect(thrown(() => defineOptionTable({ privateKey: { flag: 'private-key', parse: textOption, conflicts: 'privateKey', help: 'key' } })).field).toBe('privateKey.conflicts');
  });

  it('reads config files and library calls by option key, typed values through the same parsers', () => {
    expect(resolveOptions(DEMO, { maxSubagents: 20, shape: 'log', strict: false, lambda1: { kind: 'constant', value: 0.3 } }, 'library')).toEqual({
      maxSubagents: 20,
      shape: 'log',
      strict: false,
      lambda1: { kind: 'constant', value: 0.3 },
      port: 4318,
    });
    expect(resolveOptions(DEMO, { port: '80' }, 'config').port).toBe(80);
    expect(thrown(() => resolveOptions(DEMO, { port: 99999 }, 'config')).message).toBe('port must be a decimal integer from 0 to 65535, got 99999');
    expect(thrown(() => resolveOptions(DEMO, { port: 1.5 }, 'library')).message).toBe('options.port must be a decimal integer from 0 to 65535, got 1.5');
    expect(thrown(() => resolveOptions(DEMO, { 'max-subagents': 3 }, 'library')).message).toBe('options.max-subagents must be a known option (did you mean maxSubagents?), got 3');
    expect(thrown(() => resolveOptions(DEMO, { strict: null }, 'config')).message).toBe('strict must be a text, number, switch, list or object, got null');
  });

  it('reads query names, and ignores options not offered over HTTP (they keep their default)', () => {
    const config = resolveOptions(DEMO, { lambda1: 'constant:0.3', 'max-subagents': undefined }, 'query');
    expect(config.lambda1).toEqual({ kind: 'constant', value: 0.3 });
    expect(config.maxSubagents).toBe(100);
    expect(config.port).toBe(4318);
  });

  it('names an unknown option with the closest known name, or lists the known ones', () => {
    const near = thrown(() => resolveOptions(DEMO, { lamda1: '0.1' }, 'query'));
    expect(near.message).toBe('query.lamda1 must be a known query parameter (did you mean lambda1?), got "0.1"');
    expect(near.field).toBe('query.lamda1');
    expect(near.code).toBe('PARL_ERR_UNKNOWN_NAME');
    expect(thrown(() => resolveOptions(DEMO, { maxSubagents: '3' }, 'flag')).message).toBe('--maxSubagents must be a known flag (did you mean --max-subagents?), got "3"');
    // `port` is a flag, not a query parameter
    expect(thrown(() => resolveOptions(DEMO, { port: '80' }, 'query')).message).toBe(
      'query.port must be one of the known query parameters: max-subagents, lambda1, parallel-shape, strict, got "80"',
    );
  });

  it('names the option, the text and what was expected when a text is bad', () => {
    expect(thrown(() => resolveOptions(DEMO, { port: '99999' }, 'flag')).message).toBe('--port must be a decimal integer from 0 to 65535, got "99999"');
    expect(thrown(() => resolveOptions(DEMO, { 'parallel-shape': 'cubic' }, 'query')).message).toBe('query.parallel-shape must be one of linear, log, got "cubic"');
    expect(thrown(() => resolveOptions(DEMO, { lambda1: 'linear:0.1:0:-5' }, 'flag')).message).toBe('--lambda1.steps must be a finite number > 0, got -5');
    expect(thrown(() => resolveOptions(DEMO, { strict: 'maybe' }, 'query')).expected).toBe('true or false');
    expect(thrown(() => resolveOptions(DEMO, { lambda1: ['a', 'b'] }, 'query')).message).toBe(
      'query.lambda1 must be one text value (the parameter is given once), got ["a","b"]',
    );
  });
});

describe('option parsers', () => {
  it('read decimal numbers only, in their ranges', () => {
    expect(nonNegativeDecimalOption('0', 'f')).toBe(0);
    expect(nonNegativeDecimalOption(' 1e-3 ', 'f')).toBe(0.001);
    for (const bad of ['-1', '0x10', '', 'Infinity', 'NaN', '1,5']) expect(() => nonNegativeDecimalOption(bad, 'f')).toThrow(ParlInputError);
    expect(() => positiveDecimalOption('0', 'f')).toThrow('f must be a decimal number > 0, got "0"');
    expect(positiveIntegerOption('7', 'f')).toBe(7);
    expect(() => positiveIntegerOption('1.5', 'f')).toThrow('f must be a decimal integer ≥ 1, got "1.5"');
    expect(() => positiveIntegerOption('1e300', 'f')).toThrow(ParlInputError);
    expect(integerOptionIn(2)('2', 'f')).toBe(2);
    expect(() => integerOptionIn(2)('1', 'f')).toThrow('f must be a decimal integer ≥ 2, got "1"');
    expect(integerOptionIn(0, 64)('64', 'f')).toBe(64);
    expect(() => integerOptionIn(0, 64)('65', 'f')).toThrow('f must be a decimal integer from 0 to 64, got "65"');
  });

  it('read switches, name lists and schedules', () => {
    expect([switchOption('true', 'f'), switchOption('1', 'f'), switchOption('', 'f'), switchOption('false', 'f'), switchOption('0', 'f')]).toEqual([true, true, true, false, false]);
    expect(nameListOption('id, total_reward', 'f')).toEqual(['id', 'total_reward']);
    expect(() => nameListOption('id,,x', '--columns')).toThrow('--columns must be a comma-separated list of field names, e.g. id,total_reward, got "id,,x"');
    expect(scheduleOption('linear:0.1:0:100', 'f')).toEqual({ kind: 'linear', from: 0.1, to: 0, steps: 100 });
    expect(structuredClone(scheduleOption('step:0.1,0:50', 'f'))).toEqual(parseSchedule('step:0.1,0:50').spec);
  });
});

describe('optionsMarkdown', () => {
  it('renders the flags or the query parameters with their defaults, choices and help, one line each', () => {
    expect(optionsMarkdown(DEMO, 'query')).toBe(
      [
        '| parameter | default | what it does |',
        '| --- | --- | --- |',
        '| `max-subagents=n` | `100` | saturation point of r_parallel |',
        '| `lambda1=schedule` | `linear 0.1 → 0` | λ1 \\| schedule |',
        '| `parallel-shape=shape` | `linear` | shape of r_parallel (one of `linear`, `log`) |',
        '| `strict=true` | — | reject likely typos |',
        '',
      ].join('\n'),
    );
    expect(optionsMarkdown(DEMO, 'flag').split('\n')).toContain('| `--port n` | `4318` | port |');
    expect(optionsMarkdown(DEMO, 'flag').split('\n')).toContain('| `--strict` | — | reject likely typos |');
    expect(optionsMarkdown(DEMO, 'key').split('\n').slice(0, 3)).toEqual(['| option | default | what it does |', '| --- | --- | --- |', '| `maxSubagents` | `100` | saturation point of r_parallel |']);
  });

  it('replaces the text between markers, and says when they are missing', () => {
    const doc = 'intro\n<!-- options: demo -->\nold\n<!-- /options: demo -->\nend\n';
    expect(replaceBetweenMarkers(doc, 'demo', 'new\n')).toBe('intro\n<!-- options: demo -->\nnew\n<!-- /options: demo -->\nend\n');
    expect(replaceBetweenMarkers(doc, 'other', 'new\n')).toBeUndefined();
  });
});

describe('a repeatable row', () => {
  const table = defineOptionTable({
    server: { flag: 'server', arg: 'URL', repeatable: true, parse: (text: string) => text.split('\n'), help: 'a server (repeatable)' },
  });

  it('reads a library call\'s list as the repeated flag gives it: one text per line, never joined with commas', () => {
    expect(resolveOptions(table, { server: ['stdio:node a.mjs', 'http://127.0.0.1:1/mcp'] }, 'library').server).toEqual(['stdio:node a.mjs', 'http://127.0.0.1:1/mcp']);
    expect(resolveOptions(table, { server: 'stdio:node a.mjs\nhttp://127.0.0.1:1/mcp' }, 'flag').server).toEqual(['stdio:node a.mjs', 'http://127.0.0.1:1/mcp']);
  });
});
