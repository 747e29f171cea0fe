import { BenchmarkCollector } from './collector.js';
import { JsonReader } from './json-reader.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * Two JSON shapes from the tinybench family, latencies in ms (smaller is better):
 * - tinybench task results, `[{name, result}]` (`bench.tasks.map(t => ({name: t.name, result:
 *   t.result}))`): `result.latency.samples` (v3+, with `retainSamples`) or `result.samples`
 *   (v2) are kept as samples, else the mean latency as a summary. tinybench stores samples
 *   sorted, so their order is not the order they were measured in.
 * - `vitest bench --outputJson`: `files[].groups[].benchmarks[]`, named `<group> > <name>`;
 *   `samples` when vitest kept them, else `mean` as a summary.
 */
function readTask(task: JsonReader, collector: BenchmarkCollector): void {
  const name = task.get('name').nonEmptyString();
  const result = task.optional('result');
  if (result === undefined) {
    throw new FormatError(
      'tinybench',
      `${task.path}.result`,
      `a result for "${name}" (did it run?)`,
    );
  }
  const error = result.optional('error');
  const state = result.optional('state')?.string();
  if (error !== undefined || state === 'errored') {
    throw new FormatError(
      'tinybench',
      result.path,
      `a completed run of "${name}"`,
      JSON.stringify(error?.value ?? state),
    );
  }
  const latency = result.optional('latency') ?? result;
  const samples = latency.optional('samples');
  if (samples !== undefined && samples.numbers().length > 0) {
    collector.add(samples.path, name, 'ms', false, samples.numbers(), 'samples');
  } else {
    const mean = latency.get('mean');
    collector.add(mean.path, name, 'ms', false, [mean.number()], 'summary');
  }
}

function readVitest(json: JsonReader, collector: BenchmarkCollector): void {
  for (const file of json.get('files').items()) {
    for (const group of file.get('groups').items()) {
      const groupName = group.get('fullName').string();
      for (const bench of group.get('benchmarks').items()) {
        const name = `${groupName} > ${bench.get('name').nonEmptyString()}`;
        const samples = bench.optional('samples');
        if (samples !== undefined && samples.numbers().length > 0) {
          collector.add(samples.path, name, 'ms', false, samples.numbers(), 'samples');
        } else {
          const mean = bench.get('mean');
          collector.add(mean.path, name, 'ms', false, [mean.number()], 'summary');
        }
      }
    }
  }
}

export const tinybench: BenchmarkFormat = {
  name: 'tinybench',
  description: 'tinybench task results or vitest bench --outputJson (latency samples, ms)',
  reads: 'stdout',
  parse(output) {
    const json = JsonReader.parse('tinybench', output, 'tinybench results or vitest bench JSON');
    const collector = new BenchmarkCollector('tinybench');
    if (json.isArray()) {
      for (const task of json.items()) readTask(task, collector);
    } else {
      readVitest(json, collector);
    }
    return collector.finish('at least one benchmark result');
  },
  detect(output) {
    const vitest = /"files"\s*:/.test(output) && /"groups"\s*:/.test(output);
    const tasks =
      /^\s*\[/.test(output) && /"result"\s*:/.test(output) && /"latency"|"hz"/.test(output);
    return vitest || tasks;
  },
};
