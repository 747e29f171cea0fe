import { BenchmarkCollector } from './collector.js';
import { JsonReader } from './json-reader.js';
import type { BenchmarkFormat } from './types.js';

/**
 * github-action-benchmark's custom JSON, `[{name, unit, value, range?, extra?}]`, printed by a
 * team's own program. The direction is not in the data but in the format's name, so there
 * are two formats and `auto` recognises neither. Each entry is one summary value; a name that
 * appears several times accumulates values.
 */
function customFormat(name: string, biggerIsBetter: boolean): BenchmarkFormat {
  return {
    name,
    description: `github-action-benchmark ${name} JSON [{name, unit, value}]`,
    reads: 'stdout',
    parse(output) {
      const json = JsonReader.parse(name, output, 'a JSON array of {name, unit, value}');
      const collector = new BenchmarkCollector(name);
      for (const entry of json.items()) {
        const value = entry.get('value');
        const unit = entry.get('unit').string();
        const benchName = entry.get('name').nonEmptyString();
        collector.add(value.path, benchName, unit, biggerIsBetter, [value.number()], 'summary');
      }
      return collector.finish('a non-empty array of {name, unit, value}');
    },
  };
}

export const customBiggerIsBetter = customFormat('customBiggerIsBetter', true);
export const customSmallerIsBetter = customFormat('customSmallerIsBetter', false);

/**
 * True for output shaped like custom JSON, so `auto` can say which format to name instead of
 * only listing them all.
 */
export function looksLikeCustomJson(output: string): boolean {
  return /^\s*\[/.test(output) && /"value"\s*:/.test(output) && /"unit"\s*:/.test(output);
}
