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
function readMetric(metric: JsonReader, name: string, collector: BenchmarkCollector): void {
  const unit = metric.get('scoreUnit').nonEmptyString();
  const biggerIsBetter = /^ops\//.test(unit);
  const raw = metric.optional('rawData');
  if (raw !== undefined) {
    const values = raw.items().flatMap((fork) => fork.numbers());
    collector.add(raw.path, name, unit, biggerIsBetter, values, 'samples');
  } else {
    const score = metric.get('score');
    collector.add(score.path, name, unit, biggerIsBetter, [score.number()], 'summary');
  }
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
        readMetric(metric, `${name} - ${key}`, collector);
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
