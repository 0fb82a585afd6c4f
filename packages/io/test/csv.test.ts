import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from '../src/csv.js';

describe('CSV output', () => {
  it('quotes commas, quotes and newlines (RFC 4180) and leaves plain cells bare', () => {
    expect(csvRow(['plain', 'a,b', 'say "hi"', 'two\nlines'])).toBe('plain,"a,b","say ""hi""","two\nlines"\n');
  });

  it('writes numbers and booleans as in JSON, nested values as JSON, null and missing as empty', () => {
    expect(csvRow([0.1, -3, true, false, null, undefined, [1, 2], { a: 1 }])).toBe('0.1,-3,true,false,,,"[1,2]","{""a"":1}"\n');
    expect(csvCell(1e-7)).toBe('1e-7');
  });
});
