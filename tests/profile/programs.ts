import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FoldedStack } from '../../src/contracts/profile.js';
import { createTaskset } from '../../src/isolation/taskset.js';
import { runDuet } from '../../src/profile/duet.js';
import type { ProfileJob, ProfilerRoute, RunProfile } from '../../src/profile/types.js';
import { makeWorkspace } from '../runner/helpers.js';

/**
 * Small real programs with a known hot function (`hot_loop`, `hotLoop`, `hot`, `Hot`) that does
 * ten times the work of a cold one, for the profilers' tests.
 */

/** C, built with frame pointers (perf's call graphs walk them). */
export const C_PROGRAM = `#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned long hot_loop(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++) s += (i * i) ^ (s >> 3);
  return s;
}
__attribute__((noinline)) unsigned long cold_loop(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++) s += (i * i) ^ (s >> 3);
  return s;
}
int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 100000000UL;
  printf("%lu\\n", hot_loop(n) + cold_loop(n / 10));
  return 0;
}
`;

export const PYTHON_PROGRAM = `def hot(n):
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s


def cold(n):
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s


print(hot(4_000_000) + cold(400_000))
`;

export const NODE_PROGRAM = `function hotLoop(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s = (s + Math.sqrt(i) * Math.sin(i)) % 1e9;
  return s;
}
function coldLoop(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s = (s + Math.sqrt(i) * Math.sin(i)) % 1e9;
  return s;
}
console.log(hotLoop(30_000_000) + coldLoop(3_000_000));
`;

export const GO_MOD = 'module example.com/hot\n\ngo 1.21\n';
export const GO_TEST = `package hot

import "testing"

//go:noinline
func hot(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += (i * i) ^ (s >> 3)
	}
	return s
}

//go:noinline
func cold(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += (i * i) ^ (s >> 3)
	}
	return s
}

var sink int

func BenchmarkHot(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += hot(100000) + cold(10000)
	}
}
`;

/** A workspace with the C program built in each of `versions`. */
export async function cWorkspace(versions: string[]): Promise<string> {
  const root = await makeWorkspace(
    Object.fromEntries(versions.map((v) => [v, { 'hot.c': C_PROGRAM }])),
  );
  for (const v of versions) {
    execFileSync('cc', ['-O2', '-g', '-fno-omit-frame-pointer', '-o', 'hot', 'hot.c'], {
      cwd: path.join(root, v),
    });
  }
  return root;
}

/** The directory holding py-spy (`.ci/setup-formats.sh`); fails naming the set-up if absent. */
export function pySpyDir(): string {
  const dir = path.resolve('.venv/formats/bin');
  if (!existsSync(path.join(dir, 'py-spy'))) {
    throw new Error(
      'py-spy is missing from .venv/formats: run `npm run setup` (.ci/setup-formats.sh)',
    );
  }
  return dir;
}

/** The share of samples whose leaf frame matches. */
export function selfShare(stacks: readonly FoldedStack[], leaf: RegExp): number {
  const total = stacks.reduce((sum, s) => sum + s.count, 0);
  const hits = stacks
    .filter((s) => leaf.test(s.frames.at(-1)!))
    .reduce((sum, s) => sum + s.count, 0);
  return total === 0 ? 0 : hits / total;
}

/** The share of samples with a frame matching anywhere on the stack. */
export function totalShare(stacks: readonly FoldedStack[], frame: RegExp): number {
  const total = stacks.reduce((sum, s) => sum + s.count, 0);
  const hits = stacks
    .filter((s) => s.frames.some((f) => frame.test(f)))
    .reduce((sum, s) => sum + s.count, 0);
  return total === 0 ? 0 : hits / total;
}

/**
 * Profiles one command as both sides of a duet (each on its own CPU under taskset, released
 * together), the way the profiling stage does, and returns what the route read of each.
 */
export async function profileBoth(
  route: ProfilerRoute,
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ sides: RunProfile[]; dir: string; seconds: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-profile-test-'));
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'duetkit-profile-scratch-'));
  const jobs: ProfileJob[] = ['base', 'head'].map((v) => ({
    argv,
    cwd,
    env,
    dir,
    stem: `${v}.1`,
    scratch,
    frequency: 999,
    callGraph: 'fp',
  }));
  for (const job of jobs) await route.prepare?.(job);
  const isolation = createTaskset({
    slots: [[0], [Math.min(1, os.availableParallelism() - 1)]],
    harness: null,
    requested: 'taskset',
    warnings: [],
  });
  const started = performance.now();
  const results = await runDuet(
    [
      { run: route.wrap(jobs[0]!), cwd },
      { run: route.wrap(jobs[1]!), cwd },
    ],
    {
      isolation,
      swap: false,
      scratch,
      step: 1,
      timeoutMs: 120_000,
      signal: new AbortController().signal,
    },
  );
  for (const result of results) {
    if (result.code !== 0) throw new Error(`exit ${String(result.code)}: ${result.stderr}`);
  }
  const sides = await Promise.all(jobs.map((job) => route.read(job)));
  return { sides, dir, seconds: (performance.now() - started) / 1000 };
}

/** Writes files into a fresh directory. */
export async function programDir(files: Record<string, string>): Promise<string> {
  const root = await makeWorkspace({ p: files });
  return path.join(root, 'p');
}
