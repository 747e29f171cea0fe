import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { FormatError } from '../../src/formats/types.js';
import { FIXTURES, byName, fixture, formatError, fuzz, parse } from './helpers.js';

const dir = path.join(FIXTURES, 'criterion');
const stdout = fixture('criterion/stdout.txt');
const sample = JSON.parse(
  readFileSync(path.join(dir, 'target/criterion/fib_15/new/sample.json'), 'utf8'),
) as {
  iters: number[];
  times: number[];
};

function copyFixture(): string {
  const copy = mkdtempSync(path.join(tmpdir(), 'duetkit-criterion-'));
  cpSync(path.join(dir, 'target'), path.join(copy, 'target'), { recursive: true });
  return copy;
}

describe('criterion format', () => {
  it('reads every sample criterion wrote, in ns per iteration', () => {
    const result = parse('criterion', stdout, { cwd: dir });
    expect(result.map((b) => b.name).sort()).toEqual(['fib_15', 'sum_squares_1000']);
    const fib = byName(result, 'fib_15');
    expect(fib).toMatchObject({ unit: 'ns', biggerIsBetter: false, valueKind: 'samples' });
    expect(fib.values).toHaveLength(10);
    expect(fib.values[0]).toBe(12665472 / 7792);
    expect(fib.values[9]).toBe(sample.times[9]! / sample.iters[9]!);
    expect(byName(result, 'sum_squares_1000').values[0]).toBeCloseTo(584.548, 3);
  });

  it('reads the directory alone (dataPath) and only the benchmarks the run printed', () => {
    const all = parse('criterion', '', { cwd: '/', dataPath: path.join(dir, 'target/criterion') });
    expect(all).toHaveLength(2);
    const one = parse('criterion', 'fib_15                  time:   [1.6 µs 1.6 µs 1.7 µs]\n', {
      cwd: dir,
    });
    expect(one.map((b) => b.name)).toEqual(['fib_15']);
  });

  it('adds a throughput metric when the benchmark declares one', () => {
    const copy = copyFixture();
    try {
      const file = path.join(copy, 'target/criterion/fib_15/new/benchmark.json');
      const bench = JSON.parse(readFileSync(file, 'utf8'));
      writeFileSync(file, JSON.stringify({ ...bench, throughput: { Bytes: 1024 } }));
      const thrpt = byName(parse('criterion', stdout, { cwd: copy }), 'fib_15 - thrpt');
      expect(thrpt).toMatchObject({ unit: 'B/s', biggerIsBetter: true });
      expect(thrpt.values[0]).toBeCloseTo((1024 * 1e9) / (12665472 / 7792), 6);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('errors clearly when files are missing, truncated or hold NaN', () => {
    expect(
      formatError(() => parse('criterion', stdout, { cwd: '/nonexistent' })).expected,
    ).toContain('cargo bench');
    const missing = formatError(() =>
      parse('criterion', 'gone_bench              time:   [1 ns 2 ns 3 ns]\n', { cwd: dir }),
    );
    expect(missing.expected).toContain('missing: gone_bench');
    const copy = copyFixture();
    try {
      const file = path.join(copy, 'target/criterion/fib_15/new/sample.json');
      writeFileSync(file, readFileSync(file, 'utf8').slice(0, 60));
      expect(formatError(() => parse('criterion', stdout, { cwd: copy })).where).toBe('line 1');
      writeFileSync(
        file,
        JSON.stringify({ ...sample, times: [Number.NaN, ...sample.times.slice(1)] }),
      );
      expect(formatError(() => parse('criterion', stdout, { cwd: copy })).message).toContain(
        'fib_15/new/sample.json: $.times[0]',
      );
      writeFileSync(file, JSON.stringify({ ...sample, iters: [1] }));
      expect(formatError(() => parse('criterion', stdout, { cwd: copy })).expected).toContain(
        'as many positive',
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('survives fuzzing of its stdout and of sample.json with only FormatError', () => {
    fuzz('criterion', [stdout], { cwd: dir });
    const copy = copyFixture();
    const file = path.join(copy, 'target/criterion/sum_squares_1000/new/sample.json');
    const original = readFileSync(file, 'utf8');
    try {
      fc.assert(
        fc.property(fc.nat(original.length), fc.string({ maxLength: 8 }), (at, insert) => {
          writeFileSync(file, original.slice(0, at) + insert + original.slice(at + 3));
          try {
            parse('criterion', stdout, { cwd: copy });
          } catch (error) {
            if (!(error instanceof FormatError)) throw error;
          }
        }),
        { numRuns: 150 },
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
