import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeRepo } from '../git/helpers.js';
import { cpusetV1Available, CPUSET_V1, waitUntil } from '../isolation/helpers.js';

const BIN = path.resolve('src/cli/bin.ts');
const TSX = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;

describe('SIGTERM in the middle of a run', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await makeRepo((v) => ({ 'bench.sh': `echo ${v} >> "$1"\nsleep 0.${v}\n` }));
  });
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('stops both sides, removes worktrees and cgroups, and keeps the samples marked incomplete', async () => {
    const marker = path.join(repo, '.marker');
    await writeFile(
      path.join(repo, 'scenario.yml'),
      `versions:\n  - {name: base, ref: v1}\n  - {name: head, ref: v2}\nworkload:\n  command: [sh, bench.sh, ${marker}]\niterations: 500\nwarmup: 0\n`,
    );
    const child = spawn(
      process.execPath,
      ['--import', TSX, BIN, 'run', 'scenario.yml', '--out', 'out'],
      {
        cwd: repo,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => resolve(code)),
    );
    await waitUntil(
      () => existsSync(marker) && readFileSync(marker, 'utf8').split('\n').length > 6,
      20_000,
    );
    const groups = () =>
      cpusetV1Available()
        ? readdirSync(CPUSET_V1).filter((e) => e.startsWith(`duetkit-${child.pid}-`))
        : [];
    if (cpusetV1Available()) expect(groups()).toHaveLength(1); // the run's cgroup exists while it runs
    const worktreesDuring = execFileSync('git', ['worktree', 'list'], { cwd: repo }).toString();
    expect(worktreesDuring.split('\n').filter(Boolean)).toHaveLength(3);

    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toMatch(/interrupted by SIGTERM/);

    const samples = JSON.parse(readFileSync(path.join(repo, 'out', 'samples.json'), 'utf8'));
    expect(samples).toMatchObject({ complete: false, stopReason: 'interrupted' });
    expect(samples.trials.length).toBeGreaterThan(0);
    expect(samples.versions.map((v: { commit: string }) => v.commit)).toEqual([
      execFileSync('git', ['rev-parse', 'v1'], { cwd: repo }).toString().trim(),
      execFileSync('git', ['rev-parse', 'v2'], { cwd: repo }).toString().trim(),
    ]);
    // No benchmark process survives, no cgroup, no worktree.
    const processes = execFileSync('ps', ['-eo', 'args']).toString();
    expect(processes).not.toContain(marker);
    expect(groups()).toEqual([]);
    expect(
      execFileSync('git', ['worktree', 'list'], { cwd: repo }).toString().trim().split('\n'),
    ).toHaveLength(1);
    for (const version of samples.versions) expect(existsSync(version.dir)).toBe(false);
  });
});
