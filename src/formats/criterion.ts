import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { BenchmarkCollector } from './collector.js';
import { cargoPerBenchmark } from './cargo-filter.js';
import { JsonReader } from './json-reader.js';
import { FormatError, type BenchmarkFormat, type FormatContext } from './types.js';

/**
 * criterion.rs's own files: for each benchmark, `target/criterion/<id>/new/sample.json` holds
 * every sample (`times[i]` ns for `iters[i]` iterations) and `benchmark.json` its id and
 * throughput. Each sample becomes one value in ns per iteration (smaller is better); a
 * declared throughput adds `<id> - thrpt` (bytes or elements per second, bigger is better).
 * When the run's stdout names benchmarks, only those are read, so stale directories from
 * benchmarks that no longer exist are not reported as this run's results.
 */
const RESULT_LINE = /^(\S.*?)\s+time:\s+\[/;
const CONTINUATION = /^\s+time:\s+\[/;
const BENCHER_LINE = /^test (.+?) \.\.\. bench:/;

function idsInStdout(output: string): Set<string> {
  const ids = new Set<string>();
  let previous = '';
  for (const line of output.split(/\r?\n/)) {
    const named = RESULT_LINE.exec(line) ?? BENCHER_LINE.exec(line);
    if (named !== null) ids.add(named[1]!.trim());
    else if (CONTINUATION.test(line) && previous !== '') ids.add(previous);
    // the id is on a line of its own at the margin; `change:`, `thrpt:` lines are indented
    if (line.trim() !== '' && !/^\s/.test(line)) previous = line.trim();
  }
  return ids;
}

/** Directories holding `new/benchmark.json`, depth-first, skipping criterion's HTML report. */
function benchmarkDirs(root: string, depth = 0): string[] {
  if (depth > 6) return [];
  if (existsSync(join(root, 'new', 'benchmark.json'))) return [root];
  return readdirSync(root)
    .filter((entry) => entry !== 'report' && statSync(join(root, entry)).isDirectory())
    .sort()
    .flatMap((entry) => benchmarkDirs(join(root, entry), depth + 1));
}

function readJson(root: string, file: string): JsonReader {
  const where = relative(root, file) || file;
  if (!existsSync(file)) {
    throw new FormatError('criterion', where, 'a file criterion writes after each benchmark');
  }
  const reader = JsonReader.parse('criterion', readFileSync(file, 'utf8'), `JSON in ${where}`);
  return new JsonReader('criterion', reader.value, `${where}: $`);
}

function criterionRoot(context: FormatContext): string {
  const root =
    context.dataPath === undefined
      ? join(context.cwd, 'target', 'criterion')
      : resolve(context.cwd, context.dataPath);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new FormatError(
      'criterion',
      root,
      "criterion's output directory (run `cargo bench` in the version's checkout, or point dataPath at target/criterion)",
    );
  }
  return root;
}

export const criterion: BenchmarkFormat = {
  name: 'criterion',
  description: 'criterion.rs JSON under target/criterion (every sample of every benchmark)',
  reads: 'files',
  parse(output, context) {
    const root = criterionRoot(context);
    const wanted = idsInStdout(output);
    const collector = new BenchmarkCollector('criterion');
    const found = new Set<string>();
    for (const dir of benchmarkDirs(root)) {
      const bench = readJson(root, join(dir, 'new', 'benchmark.json'));
      const id = bench.get('full_id').nonEmptyString();
      if (wanted.size > 0 && !wanted.has(id)) continue;
      found.add(id);
      const sample = readJson(root, join(dir, 'new', 'sample.json'));
      const iters = sample.get('iters').numbers();
      const times = sample.get('times').numbers();
      if (iters.length !== times.length || iters.some((n) => n <= 0)) {
        throw new FormatError('criterion', sample.path, 'as many positive "iters" as "times"');
      }
      const perIter = times.map((t, i) => t / iters[i]!);
      collector.add(sample.path, id, 'ns', false, perIter, 'samples', {
        measuredNs: times.reduce((a, b) => a + b, 0),
      });
      const throughput = bench.optional('throughput');
      if (throughput !== undefined) {
        const [kind, amount] = throughput.entries()[0] ?? [];
        const per = amount?.number();
        if (per !== undefined) {
          const unit = kind === 'Bytes' || kind === 'BytesDecimal' ? 'B/s' : 'elem/s';
          const rates = perIter.map((ns) => (per * 1e9) / ns);
          collector.add(throughput.path, `${id} - thrpt`, unit, true, rates, 'samples', {
            derivedFrom: id,
          });
        }
      }
    }
    const missing = [...wanted].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new FormatError(
        'criterion',
        relative(context.cwd, root) || root,
        `new/benchmark.json for every benchmark the run printed, missing: ${missing.join(', ')}`,
      );
    }
    return collector.finish(`benchmark directories with new/sample.json under ${root}`);
  },
  detect(output) {
    return /^\S.*\s+time:\s+\[[\d.]+ \S+ [\d.]+ \S+ [\d.]+ \S+\]/m.test(output);
  },
  perBenchmark: cargoPerBenchmark,
};
