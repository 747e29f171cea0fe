import path from 'node:path';
import { InputError, type GetInput } from '../action/inputs.js';

/** Inputs of `mode: variability`: read the history, report, and alert. */
export interface VariabilityInputs {
  mode: 'variability';
  /** A git URL, a local path, or `owner/repo` on the GitHub server; null = this repository. */
  historyRepository: string | null;
  historyBranch: string;
  historyPath: string;
  /** Only this suite (the `name` input); null for all. */
  suite: string | null;
  /** Days of history to analyse; null for all. */
  sinceDays: number | null;
  alert: 'none' | 'issue';
  token: string;
  /** Absolute: the repository checkout (commits of change points). */
  workingDirectory: string;
  /** Absolute, or null for `$RUNNER_TEMP/duetkit/variability`. */
  resultsDirectory: string | null;
}

/**
 * Reads the inputs of `mode: variability` once; errors name the input, its value and what is
 * accepted.
 */
export function parseVariabilityInputs(get: GetInput, cwd: string): VariabilityInputs {
  const text = (name: string): string | null => {
    const value = get(name).trim();
    return value === '' ? null : value;
  };
  for (const name of ['scenario', 'run', 'aa', 'base-ref', 'head-ref']) {
    if (text(name) !== null)
      throw new InputError(
        name,
        'has no effect with mode: variability (it reads the history, it runs nothing)',
      );
  }
  const since = text('since') ?? '90d';
  const m = /^(\d+)\s*([dw])$/.exec(since);
  if (since !== 'all' && m === null) {
    throw new InputError(
      'since',
      `got ${JSON.stringify(since)}; expected days or weeks (90d, 12w) or "all"`,
    );
  }
  const alert = text('alert') ?? 'none';
  if (alert !== 'none' && alert !== 'issue') {
    throw new InputError('alert', `got ${JSON.stringify(alert)}; accepted: none, issue`);
  }
  const workingDirectory = path.resolve(cwd, text('working-directory') ?? '.');
  const results = text('results-directory');
  return {
    mode: 'variability',
    historyRepository: text('history-repository'),
    historyBranch: text('history-branch') ?? 'gh-pages',
    historyPath: text('history-path') ?? 'duetkit',
    suite: text('name'),
    sinceDays: m === null ? null : Number(m[1]) * (m[2] === 'w' ? 7 : 1),
    alert,
    token: text('github-token') ?? '',
    workingDirectory,
    resultsDirectory: results === null ? null : path.resolve(workingDirectory, results),
  };
}

/** The history's remote: a URL or local path as given, `owner/repo` on the server, or this one. */
export function historyRemote(inputs: VariabilityInputs, env: NodeJS.ProcessEnv): string {
  const server = env.GITHUB_SERVER_URL || 'https://github.com';
  const given = inputs.historyRepository;
  if (given === null) {
    if (!env.GITHUB_REPOSITORY) {
      throw new InputError(
        'history-repository',
        'required outside GitHub Actions (no GITHUB_REPOSITORY)',
      );
    }
    return `${server}/${env.GITHUB_REPOSITORY}.git`;
  }
  if (/^[\w.-]+\/[\w.-]+$/.test(given)) return `${server}/${given}.git`;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(given)
    ? given
    : path.resolve(inputs.workingDirectory, given);
}
