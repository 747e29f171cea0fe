import { getFormat } from '../../src/formats/registry.js';
import { fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('cargo/bench.txt');

describe('cargo format', () => {
  it('reads the real bencher output of criterion as one summary per benchmark', () => {
    expect(parse('cargo', real)).toEqual([
      {
        name: 'sum_squares_1000',
        unit: 'ns/iter',
        biggerIsBetter: false,
        values: [601],
        valueKind: 'summary',
      },
      {
        name: 'fib_15',
        unit: 'ns/iter',
        biggerIsBetter: false,
        values: [1635],
        valueKind: 'summary',
      },
    ]);
    expect(parse('cargo', fixture('cargo/bench-slow.txt'))[0]!.values).toEqual([1156]);
  });

  it('reads libtest lines with thousands separators', () => {
    const [b] = parse('cargo', 'test bench_fib_20 ... bench:      37,174 ns/iter (+/- 7,527)\n');
    expect(b).toMatchObject({ name: 'bench_fib_20', values: [37174] });
  });

  it('rejects bad output', () => {
    expect(
      formatError(() => parse('cargo', 'running 0 tests\n\ntest result: ok.\n')).message,
    ).toContain('no benchmark found');
    const truncated = formatError(() => parse('cargo', 'test fib_15 ... bench:        16'));
    expect(truncated.where).toBe('line 1');
    expect(truncated.expected).toContain('ns/iter');
    const failed = formatError(() =>
      parse('cargo', `${real}error: bench failed, to rerun pass \`--bench sums\`\n`),
    );
    expect(failed.message).toContain('cargo reported a failure');
    expect(
      formatError(() =>
        parse(
          'cargo',
          'test a ... bench: 5 ns/iter (+/- 1)\ntest a ... bench: 5 us/iter (+/- 1)\n',
        ),
      ).message,
    ).toContain('mixed units');
  });

  it('lists and filters benchmarks through the harness arguments', () => {
    const support = getFormat('cargo').perBenchmark!;
    expect(support.parseList(fixture('cargo/list.txt'))).toEqual(['sum_squares_1000', 'fib_15']);
    expect(support.listArgv(['cargo', 'bench'])).toEqual(['cargo', 'bench', '--', '--list']);
    expect(
      support.filterArgv(['cargo', 'bench', '--', '--output-format', 'bencher'], 'fib_15', []),
    ).toEqual(['cargo', 'bench', '--', '--output-format', 'bencher', '--exact', 'fib_15']);
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('cargo', [real]);
  });
});
