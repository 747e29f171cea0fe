import { BenchmarkCollector, escapeRegExp, numberedLines } from './collector.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * `go test -bench` text output. A result line is `<name>[-procs] <iterations> (<value> <unit>)+`
 * (the Go benchmark data format); each line is one sample, so `-count N` gives N samples per
 * run. Every metric is kept: the first (normally `ns/op`) under the benchmark's own name, the
 * others (`B/op`, `allocs/op`, `ReportMetric` units) as `<name> - <unit>`, the names
 * github-action-benchmark gives them.
 */
const RESULT = /^(Benchmark\S*?)(?:-(\d+))?\s+(\d+)\s+(\S.*)$/;
const WHOLE = /^(Benchmark\S*)\s+(\d+)\s+(\S.*)$/;

/**
 * The benchmark's name, its iterations and the rest of a result line. Go appends `-procs` only
 * when GOMAXPROCS is not 1 (a process pinned to one CPU prints none), so a trailing `-digits` is
 * the procs suffix unless removing it would leave an empty last element: Go names an empty
 * sub-benchmark `#00`, so `BenchmarkParse/-1234` (sub-benchmark "-1234", GOMAXPROCS 1) is a whole
 * name.
 */
function resultLine(line: string): [name: string, iterations: string, rest: string] | null {
  const m = RESULT.exec(line);
  if (m === null) return null;
  if (m[2] !== undefined && m[1]!.endsWith('/')) {
    const whole = WHOLE.exec(line)!;
    return [whole[1]!, whole[2]!, whole[3]!];
  }
  return [m[1]!, m[3]!, m[4]!];
}
const FAILURE = /^(--- FAIL|FAIL\b|panic:|# \S+|\S+\.go:\d+:\d+: )/;

/** Rates (`MB/s` from SetBytes, any custom `.../s`) are better when larger; all else smaller. */
function goBiggerIsBetter(unit: string): boolean {
  return /\/s$/.test(unit);
}

export const go: BenchmarkFormat = {
  name: 'go',
  description: 'go test -bench text output (every metric; each line one sample, use -count N)',
  reads: 'stdout',
  parse(output) {
    const collector = new BenchmarkCollector('go');
    for (const { text, where } of numberedLines(output)) {
      const line = text.trimEnd();
      if (FAILURE.test(line)) {
        throw new FormatError(
          'go',
          where,
          'benchmark results, but go test reported a failure',
          line,
        );
      }
      const m = resultLine(line);
      if (m === null) continue;
      const [name, iterations, rest] = m;
      const fields = rest.trim().split(/\s+/);
      if (fields.length % 2 !== 0) {
        throw new FormatError('go', where, `"<value> <unit>" pairs after the iterations`, line);
      }
      for (let i = 0; i < fields.length; i += 2) {
        const raw = fields[i]!;
        const unit = fields[i + 1]!;
        const value = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw) ? Number(raw) : NaN;
        if (Number.isNaN(value)) {
          throw new FormatError('go', where, `a number before unit "${unit}"`, raw);
        }
        const metric = i === 0 ? name : `${name} - ${unit}`;
        // MB/s (b.SetBytes) is bytes per op over ns/op: the same measurement, once more
        const extra =
          i === 0 && unit === 'ns/op'
            ? { measuredNs: Number(iterations) * value }
            : unit === 'MB/s'
              ? { derivedFrom: name }
              : {};
        collector.add(where, metric, unit, goBiggerIsBetter(unit), [value], 'samples', extra);
      }
    }
    return collector.finish('lines like "BenchmarkFib-8  1000  1234 ns/op"', output);
  },
  detect(output) {
    return /^Benchmark\S*\s+\d+\s+[\d.]+ ns\/op/m.test(output);
  },
  perBenchmark: {
    listArgv: (argv) => [...argv, '-run', '^$', '-list', '^Benchmark'],
    parseList: (output) =>
      output
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => /^Benchmark\S*$/.test(line)),
    // go test matches -bench level by level, split at '/': anchor each level.
    filterArgv: (argv, name) => [
      ...argv,
      '-run',
      '^$',
      '-bench',
      name
        .split('/')
        .map((part) => `^${escapeRegExp(part)}$`)
        .join('/'),
    ],
  },
};
