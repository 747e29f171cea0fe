import { rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { makeRepo } from '../git/helpers.js';
import { fakeContext as context } from '../helpers/cli.js';

describe('duetkit compare', () => {
  let repo: string;
  beforeAll(async () => (repo = await makeRepo((v) => ({ 'bench.sh': `sleep 0.0${v * 2}\n` }))));
  afterAll(() => rm(repo, { recursive: true, force: true }));

  it('compares two refs of the current repository without a scenario file', async () => {
    const ctx = context(repo);
    const code = await main(
      [
        'compare',
        '--base',
        'v1',
        '--head',
        'v2',
        '--iterations',
        '8',
        '--seed',
        '9',
        '--fail-on',
        'regression',
        '--',
        'sh',
        'bench.sh',
      ],
      ctx,
    );
    expect(ctx.err).toMatch(/measuring v2 vs v1 \(duet\)/);
    expect(ctx.out).toMatch(/wall-time .*regression/);
    expect(code).toBe(1);
    const samples = JSON.parse(
      readFileSync(path.join(repo, '.duetkit/latest/samples.json'), 'utf8'),
    );
    expect(samples.versions.map((v: { source: unknown }) => v.source)).toEqual([
      { ref: 'v1' },
      { ref: 'v2' },
    ]);
    expect(samples.scenario.workload.command).toEqual(['sh', 'bench.sh']);
  });
});
