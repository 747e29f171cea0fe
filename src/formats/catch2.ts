import { BenchmarkCollector, numberedLines } from './collector.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * Catch2's console report of `BENCHMARK` blocks (v2 and v3). Each benchmark is three lines
 * under the `benchmark name  samples  iterations  estimated` header: name with counts, then
 * mean and standard deviation with their bootstrap bounds. Catch2 prints only these
 * summaries, so the mean is one value per run. Values are converted to ns because Catch2
 * picks the display unit per run (546 ns in one, 1.15 us in the next).
 */
const HEADER = /^benchmark name\s+samples\s+iterations\s+(estimated|est run time)/;
const START = /^(.*?)\s*(\d+)\s+(\d+)\s+[\d.]+ (ns|us|µs|ms|s)\s*$/;
const STAT =
  /^\s+([\d.]+(?:e[-+]?\d+)?) (ns|us|µs|ms|s)\s+[\d.]+(?:e[-+]?\d+)? \S+\s+[\d.]+(?:e[-+]?\d+)? \S+\s*$/;
const TABLE_END = /^(={5,}|-{5,}|~{5,})/;
const FAILED = /^(.*\bFAILED:?|test cases:.*\bfailed\b.*)$/;
const NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9 };

export const catch2: BenchmarkFormat = {
  name: 'catch2',
  description: 'Catch2 console benchmark report (mean per benchmark, in ns)',
  reads: 'stdout',
  parse(output) {
    const lines = numberedLines(output);
    const collector = new BenchmarkCollector('catch2');
    let i = 0;
    const stat = (what: string): number => {
      const line = lines[i];
      const m = line === undefined ? null : STAT.exec(line.text);
      if (line === undefined || m === null) {
        const where = line?.where ?? `line ${lines.length + 1}`;
        throw new FormatError(
          'catch2',
          where,
          `the ${what} line "<value> <unit> <low> <high>"`,
          line?.text ?? 'end of output',
        );
      }
      i += 1;
      return Number(m[1]) * NS[m[2]!]!;
    };
    while (i < lines.length) {
      const { text, where } = lines[i]!;
      i += 1;
      if (FAILED.test(text)) {
        throw new FormatError(
          'catch2',
          where,
          'benchmark results, but Catch2 reported a failure',
          text,
        );
      }
      if (!HEADER.test(text)) continue;
      while (i < lines.length && !/^-{5,}\s*$/.test(lines[i]!.text)) i += 1;
      if (i >= lines.length) {
        throw new FormatError(
          'catch2',
          `line ${lines.length}`,
          'a "-----" line under the header',
          'end of output',
        );
      }
      i += 1;
      let nameParts: string[] = [];
      while (i < lines.length) {
        const row = lines[i]!;
        if (TABLE_END.test(row.text) || FAILED.test(row.text)) break;
        i += 1;
        if (row.text.trim() === '') continue;
        const start = START.exec(row.text);
        if (start === null) {
          // Catch2 wraps long names over several lines before the counts.
          nameParts.push(row.text.trim());
          continue;
        }
        const name = [...nameParts, start[1]!.trim()].filter((p) => p !== '').join(' ');
        nameParts = [];
        const mean = stat('mean');
        stat('standard deviation');
        collector.add(row.where, name, 'ns', false, [mean], 'summary');
      }
      if (nameParts.length > 0) {
        throw new FormatError(
          'catch2',
          `line ${i}`,
          `counts and statistics after "${nameParts.join(' ')}"`,
          lines[i]?.text ?? 'end of output',
        );
      }
    }
    return collector.finish('a "benchmark name  samples  iterations" table with rows', output);
  },
  detect(output) {
    return /^benchmark name\s+samples\s+iterations\s+(estimated|est run time)/m.test(output);
  },
};
