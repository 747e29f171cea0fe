import path from 'node:path';
import { InputError, type GetInput } from './input-error.js';
import { choice, command, gitRef, integer, threshold } from './input-parsers.js';

/** What the action bisects with: the workload and the search's settings. */
export interface BisectWorkloadInputs {
  /** Scenario file (relative to the working directory), or null for `run`. */
  scenario: string | null;
  run: string[] | null;
  setup: string[] | null;
  /** `bisect-benchmark`: exact name or /regex/; null: the only one, or the alert's. */
  benchmark: string | null;
  threshold: number | null;
  /** `bisect-budget`: most duets; null for the default. */
  budget: number | null;
  iterations: number | null;
  /** `bisect-first-parent` (default true); false also searches inside a merge. */
  firstParent: boolean;
  /**
   * `bisect-mode`: how the probes run (`duet`, `rmit`, or `auto`: both measure good against
   * bad and the more precise per second probes); null: `auto` with `run`, the scenario's mode
   * with `scenario`.
   */
  bisectMode: 'duet' | 'rmit' | 'auto' | null;
}

/** Inputs of `mode: bisect` (for `workflow_dispatch`): the range and the workload. */
export interface BisectInputs extends BisectWorkloadInputs {
  mode: 'bisect';
  good: string;
  bad: string;
  workingDirectory: string;
  /** Absolute, or null for `$RUNNER_TEMP/duetkit/bisect`. */
  resultsDirectory: string | null;
}

/** The names a bisect reads (the nightly allows them only with `bisect: true`). */
export const BISECT_INPUT_NAMES = [
  'scenario',
  'run',
  'setup',
  'bisect-benchmark',
  'threshold',
  'bisect-budget',
  'iterations',
  'bisect-first-parent',
  'bisect-mode',
] as const;

/** Reads the inputs of `mode: bisect` once; errors name the input, its value and what is accepted. */
export function parseBisectInputs(get: GetInput, cwd: string): BisectInputs {
  const text = textOf(get);
  for (const name of ['aa', 'base-from-history', 'base-ref', 'head-ref', 'publish']) {
    const value = text(name);
    if (value !== null && !(name === 'publish' && value === 'none')) {
      throw new InputError(name, 'has no effect with mode: bisect (use "good" and "bad")');
    }
  }
  const good = text('good');
  const bad = text('bad');
  if (good === null)
    throw new InputError('good', 'required with mode: bisect: a commit without the change');
  if (bad === null)
    throw new InputError('bad', 'required with mode: bisect: a commit with the change');
  const workingDirectory = path.resolve(cwd, text('working-directory') ?? '.');
  const results = text('results-directory');
  return {
    mode: 'bisect',
    good: gitRef(good, 'good'),
    bad: gitRef(bad, 'bad'),
    ...parseBisectWorkload(get, 'mode: bisect'),
    workingDirectory,
    resultsDirectory: results === null ? null : path.resolve(workingDirectory, results),
  };
}

/** The workload and search settings of a bisect; `context` names who needs them in errors. */
export function parseBisectWorkload(get: GetInput, context: string): BisectWorkloadInputs {
  const text = textOf(get);
  const scenario = text('scenario');
  const run = text('run') === null ? null : command(text('run')!, 'run');
  if (scenario === null && run === null) {
    throw new InputError(
      'run',
      `required with ${context} when there is no "scenario": the benchmark command`,
    );
  }
  const opt = <T>(name: string, parse: (v: string, n: string) => T): T | null => {
    const value = text(name);
    return value === null ? null : parse(value, name);
  };
  return {
    scenario,
    run,
    setup: opt('setup', command),
    benchmark: text('bisect-benchmark'),
    threshold: opt('threshold', threshold),
    budget: opt('bisect-budget', integer(1, 10_000)),
    iterations: opt('iterations', integer(2, 1_000_000)),
    firstParent:
      choice(text('bisect-first-parent') ?? 'true', 'bisect-first-parent', ['true', 'false']) ===
      'true',
    bisectMode: opt('bisect-mode', (v, n) => choice(v, n, ['duet', 'rmit', 'auto'] as const)),
  };
}

function textOf(get: GetInput): (name: string) => string | null {
  return (name) => {
    const value = get(name).trim();
    return value === '' ? null : value;
  };
}
