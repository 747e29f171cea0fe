import { BenchmarkCollector } from './collector.js';
import { JsonReader } from './json-reader.js';
import type { BenchmarkFormat } from './types.js';

/**
 * pytest-benchmark's `--benchmark-json` report. Each benchmark is named by its `fullname`
 * (as github-action-benchmark does). `stats.data` holds every round's time per iteration in
 * seconds, kept as samples; a report without it (older versions, some saved files) gives the
 * mean as a one-value summary. Seconds per call, smaller is better (github-action-benchmark
 * shows the reciprocal `ops` instead).
 */
export const pytest: BenchmarkFormat = {
  name: 'pytest',
  description: 'pytest-benchmark --benchmark-json report (every round from stats.data)',
  reads: 'stdout',
  parse(output) {
    const json = JsonReader.parse('pytest', output, 'the JSON written by --benchmark-json');
    const collector = new BenchmarkCollector('pytest');
    for (const bench of json.get('benchmarks').items()) {
      const name = bench.get('fullname').nonEmptyString();
      const stats = bench.get('stats');
      const data = stats.optional('data');
      if (data !== undefined) {
        const values = data.numbers();
        const iterations = stats.optional('iterations')?.number() ?? 1;
        const measuredNs = values.reduce((a, b) => a + b, 0) * iterations * 1e9;
        collector.add(data.path, name, 's', false, values, 'samples', { measuredNs });
      } else {
        const mean = stats.get('mean');
        collector.add(mean.path, name, 's', false, [mean.number()], 'summary');
      }
    }
    return collector.finish('a non-empty "benchmarks" list');
  },
  detect(output) {
    return /"benchmarks"\s*:/.test(output) && /"machine_info"\s*:/.test(output);
  },
  perBenchmark: {
    // --verbosity=-1 (what one -q gives) prints node ids; it overrides the user's own -q/-v,
    // which would otherwise add up (-q -q prints only a count per file).
    listArgv: (argv) => [...argv, '--collect-only', '--verbosity=-1'],
    parseList: (output) =>
      output
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line.includes('::') && !/\s/.test(line)),
    // -k matches substrings of test names: exclude the other tests whose names contain this one.
    filterArgv: (argv, name, allNames) => [...argv, '-k', keywordFor(name, allNames)],
    filterSetArgv: (argv, names, allNames) => [
      ...argv,
      '-k',
      names.map((name) => `(${keywordFor(name, allNames)})`).join(' or '),
    ],
  },
};

/** A -k expression selecting `name` alone: -k matches substrings, so longer names are excluded. */
function keywordFor(name: string, allNames: readonly string[]): string {
  const short = (id: string): string => id.slice(id.lastIndexOf('::') + 2);
  const own = short(name);
  const others = [...new Set(allNames.map(short))].filter(
    (other) => other !== own && other.toLowerCase().includes(own.toLowerCase()),
  );
  return [own, ...others.map((o) => `not ${o}`)].join(' and ');
}
