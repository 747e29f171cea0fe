import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { requireTool } from '../support/act.js';
import { ROOT } from '../support/bundle-action.js';

/** Every workflow of this repository and every example for users, linted by actionlint. */
describe('actionlint', () => {
  const workflows = ['.github/workflows', 'examples/workflows'].flatMap((dir) =>
    readdirSync(path.join(ROOT, dir))
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => path.join(dir, f)),
  );

  it('finds the workflows', () => {
    expect(workflows).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/check-dist.yml',
        '.github/workflows/action-e2e.yml',
        '.github/workflows/dogfood.yml',
        'examples/workflows/pr-gate.yml',
        'examples/workflows/fork-safe-bench.yml',
        'examples/workflows/fork-safe-comment.yml',
        'examples/workflows/nightly.yml',
      ]),
    );
  });

  it('reports no problem in any of them', async () => {
    const output = await new Promise<string>((resolve) => {
      execFile(
        requireTool('actionlint'),
        ['-no-color', '-oneline', ...workflows],
        { cwd: ROOT },
        (error, stdout, stderr) =>
          resolve(error === null ? '' : `${stdout}${stderr}` || String(error)),
      );
    });
    expect(output).toBe('');
  });
});
