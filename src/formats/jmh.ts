import { BenchmarkCollector, escapeRegExp } from './collector.js';
import { JsonReader } from './json-reader.js';
import type { BenchmarkFormat } from './types.js';

/**
 * JMH's `-rf json` report. `primaryMetric.rawData` is `[fork][iteration]`: every measurement
 * iteration of every fork is kept as a sample (a report without rawData, e.g. sample mode's
 * histogram only, gives the score as a summary). Names follow github-action-benchmark:
 * the benchmark method, plus ` ( {params} )` when parameterised; secondary metrics (profilers)
 * are `<name> - <metric>`. Rates in `ops/<time>` are better larger; times per op smaller.
 */
function readMetric(
  metric: JsonReader,
  name: string,
  collector: BenchmarkCollector,
  gc: GcRole = null,
): void {
  const unit = metric.get('scoreUnit').nonEmptyString();
  const biggerIsBetter = /^ops\//.test(unit);
  const raw = metric.optional('rawData');
  const extra = gc?.derivedFrom === undefined ? {} : { derivedFrom: gc.derivedFrom };
  const value = gc?.wholeBytes === true ? Math.round : (v: number) => v;
  if (raw !== undefined) {
    const values = raw.items().flatMap((fork) => fork.numbers().map(value));
    collector.add(raw.path, name, unit, biggerIsBetter, values, 'samples', extra);
  } else {
    const score = metric.get('score');
    collector.add(
      score.path,
      name,
      unit,
      biggerIsBetter,
      [value(score.number())],
      'summary',
      extra,
    );
  }
}

/**
 * `-prof gc`'s secondary metrics. `gc.alloc.rate.norm` (B/op) is what one operation
 * allocates, read from the JVM's per-thread counters: the same whole number of bytes for a
 * deterministic operation, blurred by a fraction of a byte of JMH's own allocations spread
 * over the operations (504.05, 504.03...; 0.05 for one that allocates nothing). It is rounded
 * to whole bytes, so that it is one constant per side and compared exactly (analyze/exact-rule.ts).
 * The others (`gc.alloc.rate` in MB/sec, `gc.count`, `gc.time`) come from the same iterations
 * as the score: `derivedFrom` it, so they are never extra tests in the family.
 */
type GcRole = { wholeBytes?: true; derivedFrom?: string } | null;

function gcRole(key: string, primary: string): GcRole {
  const bare = key.replace(/^\u00b7/, '');
  if (bare === 'gc.alloc.rate.norm') return { wholeBytes: true };
  return bare.startsWith('gc.') ? { derivedFrom: primary } : null;
}

export const jmh: BenchmarkFormat = {
  name: 'jmh',
  description: 'JMH -rf json report (every iteration of every fork from rawData)',
  reads: 'stdout',
  parse(output) {
    const json = JsonReader.parse('jmh', output, 'the JSON of -rf json');
    const collector = new BenchmarkCollector('jmh');
    for (const run of json.items()) {
      const params = run.optional('params');
      const suffix = params === undefined ? '' : ` ( ${JSON.stringify(params.value)} )`;
      const name = `${run.get('benchmark').nonEmptyString()}${suffix}`;
      readMetric(run.get('primaryMetric'), name, collector);
      const secondary = run.optional('secondaryMetrics');
      for (const [key, metric] of secondary?.entries() ?? []) {
        readMetric(metric, `${name} - ${key}`, collector, gcRole(key, name));
      }
    }
    return collector.finish('a non-empty list of benchmark runs');
  },
  detect(output) {
    return /"jmhVersion"\s*:/.test(output) && /"primaryMetric"\s*:/.test(output);
  },
  perBenchmark: {
    listArgv: (argv) => [...argv, '-l'],
    parseList: (output) =>
      output
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '' && !/^Benchmarks:/.test(line) && !/\s/.test(line)),
    // JMH takes include regexes as positional arguments; anchor to run exactly this one.
    filterArgv: (argv, name) => [...argv, `^${escapeRegExp(name)}$`],
  },
};
