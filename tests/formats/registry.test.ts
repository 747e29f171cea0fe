import { detectFormat, formatNames, getFormat, parseOutput } from '../../src/formats/registry.js';
import { FormatError } from '../../src/formats/types.js';
import { FIXTURES, fixture, formatError } from './helpers.js';

const GAB_TOOLS = [
  'cargo',
  'go',
  'benchmarkjs',
  'benchmarkluau',
  'pytest',
  'googlecpp',
  'catch2',
  'julia',
  'jmh',
  'benchmarkdotnet',
  'customBiggerIsBetter',
  'customSmallerIsBetter',
];

describe('format registry', () => {
  it("registers every github-action-benchmark tool under its own name, plus duetkit's", () => {
    for (const tool of GAB_TOOLS) expect(getFormat(tool).name).toBe(tool);
    expect(formatNames()).toEqual(
      expect.arrayContaining(['criterion', 'hyperfine', 'tinybench', 'jsonl']),
    );
    expect(new Set(formatNames()).size).toBe(formatNames().length);
  });

  it('names the accepted formats for an unknown one', () => {
    expect(() => getFormat('gotest')).toThrow(
      /unknown format "gotest"; accepted: auto, cargo, go,/,
    );
  });

  it.each([
    ['go/bench.txt', 'go'],
    ['cargo/bench.txt', 'cargo'],
    ['criterion/stdout.txt', 'criterion'],
    ['pytest/bench.json', 'pytest'],
    ['googlecpp/bench.json', 'googlecpp'],
    ['catch2/bench.txt', 'catch2'],
    ['jmh/bench.json', 'jmh'],
    ['benchmarkjs/bench.txt', 'benchmarkjs'],
    ['benchmarkluau/bench.txt', 'benchmarkluau'],
    ['julia/trial.json', 'julia'],
    ['julia/estimate.json', 'julia'],
    ['benchmarkdotnet/full.json', 'benchmarkdotnet'],
    ['hyperfine/bench.json', 'hyperfine'],
    ['tinybench/tinybench.json', 'tinybench'],
    ['tinybench/vitest.json', 'tinybench'],
  ])('auto-detects %s as %s', (file, format) => {
    expect(detectFormat(fixture(file)).name).toBe(format);
  });

  it('auto-detects jsonl and parses through parseOutput', () => {
    const output = 'warming up\n{"name": "parse", "value": 12.5, "unit": "ms"}\n';
    expect(parseOutput('auto', output, { cwd: FIXTURES })[0]).toMatchObject({
      name: 'parse',
      values: [12.5],
    });
  });

  it('asks for the direction of custom JSON instead of guessing it', () => {
    const error = formatError(() => detectFormat(fixture('custom/smaller.json')));
    expect(error.format).toBe('auto');
    expect(error.expected).toContain('customSmallerIsBetter or customBiggerIsBetter');
  });

  it('lists the formats when nothing matches, and names both when two do', () => {
    const none = formatError(() => detectFormat('hello world\n'));
    expect(none.expected).toContain('output of one of: cargo, go, benchmarkjs');
    const both = `${fixture('go/bench.txt')}\n${fixture('cargo/bench.txt')}`;
    const error = formatError(() => detectFormat(both));
    expect(error).toBeInstanceOf(FormatError);
    expect(error.expected).toContain('cargo and go all do; set format explicitly');
  });

  it('says which formats read files and which support per-benchmark runs', () => {
    expect(getFormat('criterion').reads).toBe('files');
    const perBenchmark = formatNames().filter((name) => getFormat(name).perBenchmark !== undefined);
    expect(perBenchmark.sort()).toEqual(['cargo', 'criterion', 'go', 'googlecpp', 'jmh', 'pytest']);
  });
});
