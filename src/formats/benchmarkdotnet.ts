import { BenchmarkCollector } from './collector.js';
import { JsonReader } from './json-reader.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * BenchmarkDotNet's JSON exporter. Samples, best first: the `Measurements` of the workload's
 * `Result` stage (full exporter; ns per operation), else `Statistics.OriginalValues`, else the
 * `Statistics.Mean` as a summary. Named by `FullName` like github-action-benchmark; every
 * entry of `Metrics` (allocations, GC counts...) is kept as `<name> - <Id>` with its own unit
 * and `TheGreaterTheBetter` direction.
 */
function timings(bench: JsonReader, statistics: JsonReader): [string, number[], boolean] {
  const results = (bench.optional('Measurements')?.items() ?? []).filter(
    (m) =>
      m.get('IterationMode').string() === 'Workload' &&
      m.get('IterationStage').string() === 'Result',
  );
  if (results.length > 0) {
    const values = results.map(
      (m) => m.get('Nanoseconds').number() / positive(m.get('Operations')),
    );
    return [`${bench.path}.Measurements`, values, true];
  }
  const original = statistics.optional('OriginalValues');
  if (original !== undefined && original.numbers().length > 0) {
    return [original.path, original.numbers(), true];
  }
  const mean = statistics.get('Mean');
  return [mean.path, [mean.number()], false];
}

function positive(reader: JsonReader): number {
  const n = reader.number();
  if (n <= 0) throw new FormatError('benchmarkdotnet', reader.path, 'a positive operation count');
  return n;
}

export const benchmarkdotnet: BenchmarkFormat = {
  name: 'benchmarkdotnet',
  description: 'BenchmarkDotNet JSON export (every measurement with the full exporter)',
  reads: 'stdout',
  parse(output) {
    const json = JsonReader.parse('benchmarkdotnet', output, 'the JSON of --exporters json');
    const collector = new BenchmarkCollector('benchmarkdotnet');
    for (const bench of json.get('Benchmarks').items()) {
      const name = bench.get('FullName').nonEmptyString();
      const statistics = bench.optional('Statistics');
      if (statistics === undefined) {
        throw new FormatError(
          'benchmarkdotnet',
          `${bench.path}.Statistics`,
          `statistics for "${name}" (did it fail?)`,
        );
      }
      const [where, values, isSamples] = timings(bench, statistics);
      collector.add(where, name, 'ns', false, values, isSamples ? 'samples' : 'summary');
      for (const metric of bench.optional('Metrics')?.items() ?? []) {
        const descriptor = metric.get('Descriptor');
        const id = descriptor.get('Id').nonEmptyString();
        const unit = descriptor.optional('Unit')?.string() ?? '';
        const bigger = descriptor.optional('TheGreaterTheBetter')?.boolean() ?? false;
        const value = metric.get('Value');
        collector.add(value.path, `${name} - ${id}`, unit, bigger, [value.number()], 'summary');
      }
    }
    return collector.finish('a non-empty "Benchmarks" list');
  },
  detect(output) {
    return /"Benchmarks"\s*:/.test(output) && /"FullName"\s*:/.test(output);
  },
};
