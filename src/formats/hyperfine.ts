import { BenchmarkCollector } from './collector.js';
import { JsonReader } from './json-reader.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * hyperfine's `--export-json` report: `results[].times` is every run's wall time in seconds,
 * kept as samples under the command (or its `-n` name). Mean user and system times are kept as
 * `<name> - user` / `<name> - system` summaries, and `memory_usage_byte` (newer hyperfine) as
 * `<name> - memory` samples. Runs that exited non-zero (`-i`) are an error: their times
 * measure a failure. A user or system time of 0 (common for a short command) is kept as it
 * is: the analysis reports a metric whose base is 0 as not comparable, which is no error.
 */
export const hyperfine: BenchmarkFormat = {
  name: 'hyperfine',
  description: 'hyperfine --export-json report (every run of every command)',
  reads: 'stdout',
  parse(output) {
    const json = JsonReader.parse('hyperfine', output, 'the JSON of --export-json');
    const collector = new BenchmarkCollector('hyperfine');
    for (const result of json.get('results').items()) {
      const name = result.get('command').nonEmptyString();
      const codes = result.optional('exit_codes');
      const failed = codes?.items().find((code) => code.value !== 0 && code.value !== null);
      if (failed !== undefined) {
        throw new FormatError(
          'hyperfine',
          failed.path,
          `exit code 0 for every run of "${name}"`,
          String(failed.value),
        );
      }
      const times = result.optional('times');
      if (times !== undefined) {
        collector.add(times.path, name, 's', false, times.numbers(), 'samples');
      } else {
        const mean = result.get('mean');
        collector.add(mean.path, name, 's', false, [mean.number()], 'summary');
      }
      for (const key of ['user', 'system'] as const) {
        const value = result.optional(key);
        if (value !== undefined) {
          collector.add(value.path, `${name} - ${key}`, 's', false, [value.number()], 'summary');
        }
      }
      const memory = result.optional('memory_usage_byte');
      if (memory !== undefined) {
        collector.add(memory.path, `${name} - memory`, 'B', false, memory.numbers(), 'samples');
      }
    }
    return collector.finish('a non-empty "results" list');
  },
  detect(output) {
    return (
      /"results"\s*:/.test(output) &&
      /"command"\s*:/.test(output) &&
      /"exit_codes"|"times"/.test(output)
    );
  },
};
