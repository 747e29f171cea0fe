import { parseNumbers } from '../../src/io/read-number-file.js';
import { VERSION } from '../../src/version.js';
import { readFileSync } from 'node:fs';

describe('number files', () => {
  it('reads lines with comments and blank lines, or a JSON array', () => {
    expect(parseNumbers('# header\n1\n 2.5 \n\n3e2 # trailing\n-4\n.5\n', 'f')).toEqual([
      1, 2.5, 300, -4, 0.5,
    ]);
    expect(parseNumbers(' [1, 2.5, 3e2]', 'f')).toEqual([1, 2.5, 300]);
  });

  it('names the file and line or element of bad input', () => {
    expect(() => parseNumbers('1\n2\n12abc\n', 'a.txt')).toThrow(
      'a.txt:3: "12abc" is not a number',
    );
    expect(() => parseNumbers('1\nInfinity\n', 'a.txt')).toThrow(
      'a.txt:2: "Infinity" is not a number',
    );
    expect(() => parseNumbers('0x10\n', 'a.txt')).toThrow('a.txt:1: "0x10" is not a number');
    expect(() => parseNumbers('[1, "2"]', 'a.json')).toThrow(
      'a.json: element [1] is "2", expected a finite number',
    );
    expect(() => parseNumbers('[1, null]', 'a.json')).toThrow('element [1] is null');
    expect(() => parseNumbers('[1, 2', 'a.json')).toThrow(/a\.json: not valid JSON/);
    expect(() => parseNumbers('{"a": 1}', 'a.json')).toThrow(
      /not valid JSON|expected a JSON array/,
    );
  });

  it('the version constant matches package.json', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
