import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A real repository with two commits, `v1` and `v2`. */
export async function makeRepo(
  files: (version: number) => Record<string, string>,
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.com');
  git('config', 'user.name', 'test');
  for (const version of [1, 2]) {
    for (const [name, text] of Object.entries(files(version)))
      await writeFile(path.join(dir, name), text);
    git('add', '.');
    git('commit', '-q', '-m', `v${version}`);
    git('tag', `v${version}`);
  }
  return dir;
}
