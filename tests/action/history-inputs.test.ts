import { parseInputs, type RunInputs } from '../../src/action/inputs.js';
import { dashboardUrl, historyRemote } from '../../src/action/history-step.js';

const parse = (inputs: Record<string, string>) =>
  parseInputs((name) => inputs[name] ?? '', '/work/repo') as RunInputs;

describe('publish: history inputs', () => {
  it('reads them, with a local path resolved from working-directory', () => {
    const inputs = parse({
      run: 'make bench',
      publish: 'history',
      'history-branch': 'bench-data',
      'history-path': 'perf/history',
      'history-repository': '../history.git',
      'history-token': 'pat',
      'history-keep-runs': '500',
    });
    expect(inputs.history).toEqual({
      publish: 'history',
      branch: 'bench-data',
      path: 'perf/history',
      repository: '/work/history.git',
      token: 'pat',
      retention: { keepRuns: 500 },
    });
    expect(
      parse({ run: 'x', 'history-keep-days': '90', 'history-repository': 'octo/data' }).history,
    ).toMatchObject({
      repository: 'octo/data',
      retention: { keepDays: 90 },
    });
  });

  it('refuses bad values, naming the input', () => {
    expect(() => parse({ run: 'x', publish: 'gh-pages' })).toThrow(
      'Input "publish": got "gh-pages"; accepted: none, history',
    );
    expect(() => parse({ run: 'x', 'history-keep-runs': '0' })).toThrow(
      /Input "history-keep-runs": got "0"; expected a whole number ≥ 1/,
    );
    expect(() => parse({ run: 'x', 'history-keep-runs': '3', 'history-keep-days': '3' })).toThrow(
      /not both/,
    );
    expect(() => parse({ run: 'x', 'history-branch': '--force' })).toThrow(
      /Input "history-branch"/,
    );
    expect(() => parse({ run: 'x', 'history-path': '../out' })).toThrow(/Input "history-path"/);
    expect(() =>
      parseInputs(
        (n) => ({ mode: 'comment', 'results-directory': 'r', publish: 'history' })[n] ?? '',
        '/w',
      ),
    ).toThrow('Input "publish": has no effect with mode: comment');
  });

  it('finds the remote and the dashboard URL', () => {
    const env = { GITHUB_REPOSITORY: 'Octo/bench', GITHUB_SERVER_URL: 'https://github.com' };
    const inputs = parse({ run: 'x', publish: 'history' }).history;
    expect(historyRemote({ inputs, githubToken: '', env })).toBe(
      'https://github.com/Octo/bench.git',
    );
    expect(dashboardUrl({ inputs, githubToken: '', env })).toBe(
      'https://octo.github.io/bench/duetkit/',
    );
    const pages = { ...inputs, repository: 'octo/octo.github.io', path: '' };
    expect(dashboardUrl({ inputs: pages, githubToken: '', env })).toBe('https://octo.github.io/');
    const enterprise = { ...env, GITHUB_SERVER_URL: 'https://git.example.com' };
    expect(historyRemote({ inputs, githubToken: '', env: enterprise })).toBe(
      'https://git.example.com/Octo/bench.git',
    );
    expect(dashboardUrl({ inputs, githubToken: '', env: enterprise })).toBe('');
    const local = { ...inputs, repository: '/srv/history.git' };
    expect(historyRemote({ inputs: local, githubToken: '', env })).toBe('/srv/history.git');
    expect(dashboardUrl({ inputs: local, githubToken: '', env })).toBe('');
  });
});

describe('the defaults of action.yml', () => {
  it('are accepted in both modes (the runner passes every default as an input)', async () => {
    const { readFileSync } = await import('node:fs');
    const { parse: parseYaml } = await import('yaml');
    const { ROOT } = await import('../support/bundle-action.js');
    const action = parseYaml(readFileSync(`${ROOT}/action.yml`, 'utf8')) as {
      inputs: Record<string, { default?: string }>;
    };
    const defaults = Object.fromEntries(
      Object.entries(action.inputs)
        .filter(([, i]) => i.default !== undefined)
        .map(([name, i]) => [name, i.default!]),
    );
    expect(() => parse({ ...defaults, run: 'make bench' })).not.toThrow();
    expect(() =>
      parseInputs(
        (n) => ({ ...defaults, mode: 'comment', 'results-directory': 'r' })[n] ?? '',
        '/w',
      ),
    ).not.toThrow();
  });
});
