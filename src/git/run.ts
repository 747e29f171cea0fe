import { spawn } from 'node:child_process';

/**
 * The one place duetkit runs `git`: every git operation of the action, the CLI and the history
 * store goes through `runGit` (or `readGit` on it), so how git is started, fed and read is
 * written once. The interfaces above it (`Git`, `GitHistory`, `BranchGit`, ...) are the seams
 * tests replace.
 */

export interface RunGitOptions {
  /** Working directory. Default: this process's. */
  cwd?: string;
  /** git's environment. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** Written to git's standard input, which is then closed (it is closed at once without). */
  input?: Buffer | string;
}

/** How git ended: its exit code (1 when a signal ended it) and what it printed. */
export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `git ...args` to its end, whatever its exit code. Rejects only when git cannot be
 * started at all (not installed: the spawn error, e.g. `spawn git ENOENT`). Output is kept
 * whole, in memory.
 */
export function runGit(args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: err }),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/**
 * `git ...args`'s standard output as text (not trimmed) when it exits 0. Otherwise rejects
 * with `fail(detail)`, where `detail` is git's trimmed standard error or, when it printed
 * none, how it failed. Default error: `git ARGS: DETAIL`.
 */
export async function readGit(
  args: readonly string[],
  options: RunGitOptions & { fail?: (detail: string) => Error } = {},
): Promise<string> {
  const fail = options.fail ?? ((detail: string) => new Error(`git ${args.join(' ')}: ${detail}`));
  let result: GitResult;
  try {
    result = await runGit(args, options);
  } catch (error) {
    throw fail((error as Error).message);
  }
  if (result.code === 0) return result.stdout.toString();
  throw fail(result.stderr.trim() || `Command failed: git ${args.join(' ')}\n${result.stderr}`);
}
