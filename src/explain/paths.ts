import { fnv1a } from '../stats/rng.js';

/**
 * Where a benchmark's profiles go in the results directory (the action's artifact):
 * `profiles/<benchmark>/diff.html` and one speedscope file per side. Benchmark names come from
 * tools (`BenchmarkParse/small-8`, `parse - system`): the directory is the name with every
 * character but letters, digits, `.`, `_` and `-` made `_`, and a short hash of the whole name
 * when that changed it, so that two names never share a directory.
 */
export function profileDir(benchmark: string, version = 'head'): string {
  const name = version === 'head' ? benchmark : `${benchmark} (${version})`;
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  const tag = safe === name ? '' : `-${fnv1a(name).toString(16).padStart(8, '0')}`;
  return `profiles/${safe.replace(/^\.+/, '_')}${tag}`;
}

export const explainFiles = (benchmark: string, version = 'head') => {
  const dir = profileDir(benchmark, version);
  return {
    flameGraph: `${dir}/diff.html`,
    speedscope: { base: `${dir}/base.speedscope.json`, head: `${dir}/head.speedscope.json` },
  };
};
