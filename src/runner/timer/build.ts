import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The C source, beside this module in src/ and beside the bundle in dist/ (scripts/bundle.mjs
 * copies it there), so both find it at the same relative URL.
 */
const SOURCE_URL = new URL('./duetkit-timer.c', import.meta.url);

/** C compilers tried in order; the first that builds the timer is used. */
const COMPILERS = ['cc', 'gcc', 'clang'];

/** Where built tools are kept between runs: `$DUETKIT_CACHE`, else `~/.cache/duetkit`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DUETKIT_CACHE) return env.DUETKIT_CACHE;
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'duetkit');
}

export type TimerBuild = { path: string } | { path: null; reason: string };

const builds = new Map<string, Promise<TimerBuild>>();

/**
 * The timer program (duetkit-timer.c), compiled once per source and machine architecture
 * into the cache directory, statically linked where the C library allows it (so it also runs
 * in a container image without a compiler). Resolves with `path: null` and the reason when no
 * C compiler could build it; the caller then falls back to the harness's clock and says so.
 */
export async function buildTimer(env: NodeJS.ProcessEnv = process.env): Promise<TimerBuild> {
  let source: string;
  try {
    source = await readFile(SOURCE_URL, 'utf8');
  } catch (error) {
    return { path: null, reason: `the timer's source is missing (${firstLine(error)})` };
  }
  const hash = createHash('sha256').update(source).update(os.arch()).digest('hex').slice(0, 16);
  const target = path.join(cacheDir(env), `timer-${hash}`, 'duetkit-timer');
  let build = builds.get(target);
  if (build === undefined) {
    build = compile(source, target, env).catch((error: unknown) => ({
      path: null,
      reason: `could not build duetkit's timer in ${path.dirname(target)} (${firstLine(error)})`,
    }));
    builds.set(target, build);
  }
  return build;
}

async function compile(text: string, target: string, env: NodeJS.ProcessEnv): Promise<TimerBuild> {
  if (await isExecutable(target)) return { path: target };
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true });
  // Several runs may build at once: each writes its own files and renames into place.
  const unique = `${process.pid}-${Date.now().toString(36)}`;
  const source = path.join(dir, `duetkit-timer-${unique}.c`);
  const output = path.join(dir, `duetkit-timer-${unique}`);
  await writeFile(source, text);
  const errors: string[] = [];
  try {
    for (const compiler of COMPILERS) {
      for (const flags of [['-static'], []]) {
        try {
          await run(compiler, ['-O2', ...flags, '-o', output, source], { env, timeout: 60_000 });
          await chmod(output, 0o755);
          await rename(output, target);
          return { path: target };
        } catch (error) {
          errors.push(`${compiler} ${flags.join(' ')}: ${firstLine(error)}`);
        }
      }
    }
  } finally {
    await rm(source, { force: true });
    await rm(output, { force: true });
  }
  return {
    path: null,
    reason: `no C compiler could build duetkit's timer (${errors.join('; ')})`,
  };
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    return ((await stat(file)).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function firstLine(error: unknown): string {
  const e = error as { code?: string; stderr?: string; message?: string };
  if (e.code === 'ENOENT') return 'not found';
  return (e.stderr || e.message || String(error)).trim().split('\n')[0]!.slice(0, 200);
}
