import { FormatError, type BenchmarkFormat, type ParsedBenchmark } from './types.js';

/**
 * duetkit's own line format: one JSON object per line,
 * `{"name": "parse", "value": 12.5, "unit": "ms", "biggerIsBetter": false}`.
 * `unit` defaults to "" and `biggerIsBetter` to false. Other lines (plain text a program
 * prints for humans) are ignored, but a line that starts with `{` must be a valid record, so
 * a typo is an error rather than a silently dropped benchmark. Repeated names accumulate
 * values, so a program may print several samples of one benchmark per run.
 */
export const jsonl: BenchmarkFormat = {
  name: 'jsonl',
  description: 'JSON lines {"name","value","unit","biggerIsBetter"} printed by the command',
  reads: 'stdout',
  parse(output) {
    const byName = new Map<string, ParsedBenchmark>();
    output.split(/\r?\n/).forEach((line, i) => {
      const text = line.trim();
      if (!text.startsWith('{')) return;
      const where = `line ${i + 1}`;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch {
        throw new FormatError('jsonl', where, 'a JSON object', text);
      }
      const { name, value, unit = '', biggerIsBetter = false } = record as Record<string, unknown>;
      if (typeof name !== 'string' || name === '') {
        throw new FormatError('jsonl', `${where}, field "name"`, 'a non-empty string', text);
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new FormatError('jsonl', `${where}, field "value"`, 'a finite number', text);
      }
      if (typeof unit !== 'string') {
        throw new FormatError('jsonl', `${where}, field "unit"`, 'a string', text);
      }
      if (typeof biggerIsBetter !== 'boolean') {
        throw new FormatError('jsonl', `${where}, field "biggerIsBetter"`, 'true or false', text);
      }
      const seen = byName.get(name);
      if (seen === undefined) {
        byName.set(name, { name, unit, biggerIsBetter, values: [value], valueKind: 'samples' });
        return;
      }
      if (seen.unit !== unit || seen.biggerIsBetter !== biggerIsBetter) {
        throw new FormatError(
          'jsonl',
          where,
          `benchmark "${name}" with unit "${seen.unit}" and biggerIsBetter ${seen.biggerIsBetter} as on its first line`,
          text,
        );
      }
      seen.values.push(value);
    });
    if (byName.size === 0) {
      throw new FormatError(
        'jsonl',
        'the whole output',
        'at least one {"name", "value"} line',
        output,
      );
    }
    return [...byName.values()];
  },
  detect(output) {
    // [ \t] rather than \s: a pretty-printed JSON array (custom JSON) must not look like lines
    return /^[ \t]*\{[ \t]*"name"[ \t]*:/m.test(output) && /"value"[ \t]*:/.test(output);
  },
};
