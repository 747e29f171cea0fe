import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { actionlint, cli, makeRepo, removeDir, runWritten } from './helpers.js';

// A repository with nothing but a shell script: `--command` gives what to measure, by its
// wall time. The second commit makes the script's loop 4 times longer (why not 2:
// e2e-hyperfine.test.ts).
describe('duetkit init with a plain command', () => {
  let repo: string | undefined;
  afterAll(() => removeDir(repo));

  it('writes a wall-time scenario that runs and finds the slowdown', async () => {
    const loop = (n: number): string =>
      `#!/bin/sh\ni=0\nwhile [ "$i" -lt ${n} ]; do i=$((i + 1)); done\n`;
    repo = await makeRepo({ 'work.sh': loop(10000) }, { 'work.sh': loop(40000) });
    const none = await cli(['init'], repo);
    expect(none.code).toBe(2);
    expect(none.err).toContain('--command "CMD"');

    const init = await cli(
      ['init', '--command', 'sh work.sh', '--iterations', '20', '--budget', '1m'],
      repo,
    );
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('found command: the command sh work.sh');
    const scenario = await readFile(path.join(repo, 'benchmarks/duetkit.yml'), 'utf8');
    expect(scenario).toContain('command: sh work.sh');
    expect(scenario).not.toMatch(/^ +format:/m);
    expect(await actionlint([path.join(repo, '.github/workflows/duetkit.yml')])).toBe('');

    const run = await runWritten('command', repo, 'benchmarks/duetkit.yml');
    expect(run.verdict('wall-time')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
  }, 120_000);
});
