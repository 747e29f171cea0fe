import { BenchmarkCollector, numberedLines } from './collector.js';
import { FormatError, type BenchmarkFormat } from './types.js';
import { cargoPerBenchmark } from './cargo-filter.js';

/**
 * libtest's bench output, `test <name> ... bench: <value> <unit>/iter (+/- <dev>)`, printed by
 * `cargo bench` with nightly `#[bench]` or by criterion with `--output-format bencher`. Only a
 * summary per benchmark (libtest's median, criterion's point estimate).
 */
const RESULT =
  /^test (.+?) \.\.\. bench:\s+([\d,]+(?:\.\d+)?) (\S+)\/iter \(\+\/- ([\d,]+(?:\.\d+)?)\)\s*$/;
const FAILURE = /^(test .+ \.\.\. FAILED|error(\[E\d+\])?:|thread '.*' panicked)/;

export const cargo: BenchmarkFormat = {
  name: 'cargo',
  description: 'cargo bench / criterion --output-format bencher text (summary per benchmark)',
  reads: 'stdout',
  parse(output) {
    const collector = new BenchmarkCollector('cargo');
    for (const { text, where } of numberedLines(output)) {
      const line = text.trimEnd();
      if (FAILURE.test(line)) {
        throw new FormatError(
          'cargo',
          where,
          'benchmark results, but cargo reported a failure',
          line,
        );
      }
      if (!line.startsWith('test ') || !line.includes(' ... bench:')) continue;
      const m = RESULT.exec(line);
      if (m === null) {
        throw new FormatError('cargo', where, '"test NAME ... bench: N ns/iter (+/- D)"', line);
      }
      const [, name, value, unit] = m as unknown as [string, string, string, string];
      const number = Number(value.replace(/,/g, ''));
      collector.add(where, name.trim(), `${unit}/iter`, false, [number], 'summary');
    }
    return collector.finish('lines like "test fib ... bench: 1,234 ns/iter (+/- 56)"', output);
  },
  detect(output) {
    return /^test .+ \.\.\. bench:\s+[\d,.]+ \S+\/iter/m.test(output);
  },
  perBenchmark: cargoPerBenchmark,
};
