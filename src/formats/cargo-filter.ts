import type { PerBenchmarkSupport } from './types.js';

/**
 * Per-benchmark runs for cargo bench harnesses (libtest and criterion both accept `--list`
 * and `--exact NAME` after cargo's `--`). Arguments for the harness go after the user's own
 * `--` when there is one, else after a new one.
 */
function harnessArgs(argv: readonly string[], extra: string[]): string[] {
  return argv.includes('--') ? [...argv, ...extra] : [...argv, '--', ...extra];
}

export const cargoPerBenchmark: PerBenchmarkSupport = {
  listArgv: (argv) => harnessArgs(argv, ['--list']),
  parseList: (output) =>
    output
      .split(/\r?\n/)
      .map((line) => /^(.+): (bench|benchmark)$/.exec(line.trim())?.[1])
      .filter((name): name is string => name !== undefined),
  filterArgv: (argv, name) => harnessArgs(argv, ['--exact', name]),
};
