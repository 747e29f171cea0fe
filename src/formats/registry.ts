import { benchmarkdotnet } from './benchmarkdotnet.js';
import { benchmarkjs } from './benchmarkjs.js';
import { benchmarkluau } from './benchmarkluau.js';
import { cargo } from './cargo.js';
import { catch2 } from './catch2.js';
import { criterion } from './criterion.js';
import { customBiggerIsBetter, customSmallerIsBetter, looksLikeCustomJson } from './custom.js';
import { go } from './go.js';
import { googlecpp } from './googlecpp.js';
import { hyperfine } from './hyperfine.js';
import { jmh } from './jmh.js';
import { jsonl } from './jsonl.js';
import { julia } from './julia.js';
import { k6 } from './k6.js';
import { pytest } from './pytest.js';
import { tinybench } from './tinybench.js';
import {
  FormatError,
  type BenchmarkFormat,
  type FormatContext,
  type ParsedBenchmark,
} from './types.js';

/** Every format duetkit reads, one entry each. Order matters only for `auto` detection. */
const FORMATS: readonly BenchmarkFormat[] = [
  cargo,
  go,
  benchmarkjs,
  benchmarkluau,
  pytest,
  googlecpp,
  catch2,
  julia,
  jmh,
  benchmarkdotnet,
  customBiggerIsBetter,
  customSmallerIsBetter,
  criterion,
  hyperfine,
  k6,
  tinybench,
  jsonl,
];

export function formatNames(): string[] {
  return FORMATS.map((f) => f.name);
}

/** Formats whose tool can list its benchmarks and run a single one (per-benchmark duet). */
export function perBenchmarkFormats(): string[] {
  return FORMATS.filter((f) => f.perBenchmark !== undefined).map((f) => f.name);
}

export function getFormat(name: string): BenchmarkFormat {
  const format = FORMATS.find((f) => f.name === name);
  if (format === undefined) {
    throw new RangeError(`unknown format "${name}"; accepted: auto, ${formatNames().join(', ')}`);
  }
  return format;
}

/** Picks the one format whose `detect` accepts the output; errors when none or several do. */
export function detectFormat(output: string): BenchmarkFormat {
  const matches = FORMATS.filter((f) => f.detect?.(output) === true);
  if (matches.length === 1) return matches[0]!;
  const names = formatNames().join(', ');
  if (matches.length === 0 && looksLikeCustomJson(output)) {
    throw new FormatError(
      'auto',
      'the whole output',
      'a format named explicitly: github-action-benchmark custom JSON carries no direction, so set format to customSmallerIsBetter or customBiggerIsBetter',
    );
  }
  if (matches.length === 0) {
    throw new FormatError('auto', 'the whole output', `output of one of: ${names}`, output);
  }
  throw new FormatError(
    'auto',
    'the whole output',
    `output that only one format recognises, but ${matches.map((f) => f.name).join(' and ')} all do; set format explicitly`,
  );
}

/** Parses one run's output with the named format (`auto` detects it). */
export function parseOutput(
  name: string,
  output: string,
  context: FormatContext,
): ParsedBenchmark[] {
  const format = name === 'auto' ? detectFormat(output) : getFormat(name);
  return format.parse(output, context);
}
