import { BenchmarkCollector, escapeRegExp } from './collector.js';
import { JsonReader } from './json-reader.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * Google Benchmark's `--benchmark_format=json` (or `--benchmark_out`) report. Each repetition
 * (`run_type: iteration`, one per `--benchmark_repetitions`) is one sample; aggregates (mean,
 * median, stddev, cv) are skipped when the repetitions are there, and the mean is used as a
 * summary when only aggregates were reported. Metrics: `real_time` under the benchmark's name
 * in `<time_unit>/iter` (github-action-benchmark's unit), `cpu_time` as `<name> - cpu_time`,
 * and every user counter as `<name> - <counter>`.
 */
const NOT_COUNTERS = new Set([
  'name',
  'family_index',
  'per_family_instance_index',
  'run_name',
  'run_type',
  'repetitions',
  'repetition_index',
  'threads',
  'iterations',
  'real_time',
  'cpu_time',
  'time_unit',
  'aggregate_name',
  'aggregate_unit',
  'error_occurred',
  'error_message',
  'label',
  'big_o',
  'rms',
  'complexity_n',
]);

/**
 * What a registered `benchmark::MemoryManager` adds to each run: allocations per iteration,
 * and bytes (the peak in use, and in newer versions the total allocated and the net growth).
 */
const MEMORY_COUNTERS: Record<string, string> = {
  allocs_per_iter: 'allocs/iter',
  max_bytes_used: 'B',
  total_allocated_bytes: 'B',
  net_heap_growth: 'B',
};

/**
 * Counters carry no unit or direction in JSON: rates (`*_per_second`) are better larger; the
 * memory manager's figures are counts and bytes, smaller is better, each one constant per
 * side for a deterministic benchmark and then compared exactly (analyze/exact-rule.ts).
 */
function counterUnit(counter: string): { unit: string; biggerIsBetter: boolean } {
  if (counter === 'bytes_per_second') return { unit: 'B/s', biggerIsBetter: true };
  if (counter === 'items_per_second') return { unit: 'items/s', biggerIsBetter: true };
  const memory = MEMORY_COUNTERS[counter];
  if (memory !== undefined) return { unit: memory, biggerIsBetter: false };
  return { unit: '', biggerIsBetter: /_per_second$/.test(counter) };
}

export const googlecpp: BenchmarkFormat = {
  name: 'googlecpp',
  description: 'Google Benchmark JSON (--benchmark_format=json; each repetition one sample)',
  reads: 'stdout',
  parse(output) {
    const json = JsonReader.parse('googlecpp', output, 'the JSON of --benchmark_format=json');
    const entries = json.get('benchmarks').items();
    const runType = (e: JsonReader): string => e.optional('run_type')?.string() ?? 'iteration';
    const hasIterations = entries.some((e) => runType(e) === 'iteration');
    const collector = new BenchmarkCollector('googlecpp');
    for (const entry of entries) {
      if (entry.optional('error_occurred')?.boolean() === true) {
        const message = entry.optional('error_message')?.string() ?? '';
        throw new FormatError(
          'googlecpp',
          entry.path,
          'a benchmark that ran, not an error',
          message,
        );
      }
      const kind = runType(entry);
      if (hasIterations && kind !== 'iteration') continue;
      if (!hasIterations && entry.optional('aggregate_name')?.string() !== 'mean') continue;
      const valueKind = kind === 'iteration' ? 'samples' : 'summary';
      const name = (entry.optional('run_name') ?? entry.get('name')).nonEmptyString();
      const unit = `${entry.get('time_unit').nonEmptyString()}/iter`;
      const real = entry.get('real_time');
      collector.add(real.path, name, unit, false, [real.number()], valueKind);
      const cpu = entry.get('cpu_time');
      collector.add(cpu.path, `${name} - cpu_time`, unit, false, [cpu.number()], valueKind);
      for (const [key, value] of entry.entries()) {
        if (NOT_COUNTERS.has(key) || typeof value.value !== 'number') continue;
        const { unit: counterU, biggerIsBetter } = counterUnit(key);
        const metric = `${name} - ${key}`;
        collector.add(value.path, metric, counterU, biggerIsBetter, [value.number()], valueKind);
      }
    }
    return collector.finish('a non-empty "benchmarks" list of runs');
  },
  detect(output) {
    return (
      /"benchmarks"\s*:/.test(output) && /"context"\s*:/.test(output) && /"time_unit"/.test(output)
    );
  },
  perBenchmark: {
    listArgv: (argv) => [...argv, '--benchmark_list_tests=true'],
    parseList: (output) =>
      output
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    filterArgv: (argv, name) => [...argv, `--benchmark_filter=^${escapeRegExp(name)}$`],
  },
};
