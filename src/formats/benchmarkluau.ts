import { BenchmarkCollector, numberedLines } from './collector.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * Luau's benchmark runner (`bench/bench.py`) lines, `SUCCESS: <name> : 15.041ms +/- 0.636% on
 * luau`. Only the average is printed: one summary value per run, converted to ms so that runs
 * printing different units stay comparable. Smaller is better.
 */
const RESULT = /^SUCCESS:?\s+(.+?)\s+:\s+([\d.]+)(ns|us|ms|s)\s+\+\/-\s+([\d.]+)%\s+on\s+(\S+)\s*$/;
const MS: Record<string, number> = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };

export const benchmarkluau: BenchmarkFormat = {
  name: 'benchmarkluau',
  description: 'Luau bench.py "SUCCESS: name : 15.0ms +/- 0.6% on luau" lines (summary, ms)',
  reads: 'stdout',
  parse(output) {
    const collector = new BenchmarkCollector('benchmarkluau');
    for (const { text, where } of numberedLines(output)) {
      const line = text.trimEnd();
      if (/^(FAILED|ERROR|FAIL)\b/.test(line)) {
        throw new FormatError(
          'benchmarkluau',
          where,
          'SUCCESS lines, but a benchmark failed',
          line,
        );
      }
      if (!line.startsWith('SUCCESS')) continue;
      const m = RESULT.exec(line);
      if (m === null) {
        throw new FormatError(
          'benchmarkluau',
          where,
          '"SUCCESS: NAME : 1.23ms +/- 0.4% on DRIVER"',
          line,
        );
      }
      const [, name, value, unit] = m as unknown as [string, string, string, string];
      collector.add(where, name, 'ms', false, [Number(value) * MS[unit]!], 'summary');
    }
    return collector.finish('lines like "SUCCESS: base64 : 15.041ms +/- 0.636% on luau"', output);
  },
  detect(output) {
    return /^SUCCESS:?\s+.+\s+:\s+[\d.]+(ns|us|ms|s)\s+\+\/-/m.test(output);
  },
};
