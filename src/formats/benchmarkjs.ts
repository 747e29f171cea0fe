import { BenchmarkCollector, numberedLines } from './collector.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * benchmark.js cycle lines, `<name> x 1,234 ops/sec ±1.23% (90 runs sampled)` (what
 * `String(event.target)` prints). Only the mean rate is printed: one summary value per run,
 * operations per second, bigger is better.
 */
const RESULT = /^(.+) x ([\d,]+(?:\.\d+)?) (\S+) (?:±|\+-)([\d.]+)% \((\d+) runs? sampled\)\s*$/;

export const benchmarkjs: BenchmarkFormat = {
  name: 'benchmarkjs',
  description: 'benchmark.js "name x N ops/sec ±R% (K runs sampled)" lines (summary)',
  reads: 'stdout',
  parse(output) {
    const collector = new BenchmarkCollector('benchmarkjs');
    for (const { text, where } of numberedLines(output)) {
      const line = text.trimEnd();
      if (!/ x [\d,.]+ \S+/.test(line) || !/sampled\)|ops\/sec/.test(line)) continue;
      const m = RESULT.exec(line);
      if (m === null) {
        throw new FormatError(
          'benchmarkjs',
          where,
          '"NAME x N ops/sec ±R% (K runs sampled)"',
          line,
        );
      }
      const [, name, value, unit] = m as unknown as [string, string, string, string];
      collector.add(where, name.trim(), unit, true, [Number(value.replace(/,/g, ''))], 'summary');
    }
    return collector.finish('lines like "fib x 1,234 ops/sec ±1.2% (90 runs sampled)"', output);
  },
  detect(output) {
    return /^.+ x [\d,.]+ \S+ (±|\+-)[\d.]+% \(\d+ runs? sampled\)/m.test(output);
  },
};
