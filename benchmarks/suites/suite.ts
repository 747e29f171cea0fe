import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/** What the usual method of an ecosystem called, per benchmark, at equal machine time. */
export interface UsualResult {
  method: string;
  seconds: number;
  /** benchmark (as that method names it) → changed (true) or not */
  changed: Record<string, boolean>;
  detail: string;
}

/** A real third-party suite: fetched through its registry into a cache, never committed. */
export interface Suite {
  name: string;
  label: string;
  /** Directories of the pristine copy, an identical second copy, and the injected slowdown. */
  prepare(): { base: string; aa: string; slow: string; env: NodeJS.ProcessEnv };
  /**
   * The scenario's workload (and suite) lines (YAML); `benchmarks`: only these (patterns),
   * for the ground-truth run.
   */
  scenario(benchmarks?: string[]): string[];
  /** Benchmarks for the ground truth: the affected ones and one that is not. */
  truth: string[];
  /** The function the slowdown was injected in, and which benchmarks call it. */
  injected: { where: string; affects: RegExp };
  usual(base: string, head: string, seconds: number, env: NodeJS.ProcessEnv): UsualResult;
  /** The efficiency raises one after the other, for the ablation (a `suite:` value each). */
  variants: { label: string; suite: string }[];
  /** Builds ahead what takes long, so that runs measure, not compile. */
  warm?(dirs: { base: string; aa: string; slow: string; env: NodeJS.ProcessEnv }): void;
}

export function cacheDir(): string {
  return process.env.DUETKIT_BENCH_CACHE ?? path.join(os.homedir(), '.cache', 'duetkit-bench');
}

/** Copies `from` to base, aa (identical) and slow under `root`, writable; `inject` edits slow. */
export function threeCopies(
  root: string,
  from: string,
  inject: (slow: string) => void,
): { base: string; aa: string; slow: string } {
  const base = path.join(root, 'base');
  const aa = path.join(root, 'aa');
  const slow = path.join(root, 'slow');
  if (existsSync(path.join(root, '.ready'))) return { base, aa, slow };
  mkdirSync(root, { recursive: true });
  for (const target of [base, aa, slow]) {
    cpSync(from, target, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', target]);
  }
  inject(slow);
  writeFileSync(path.join(root, '.ready'), '');
  return { base, aa, slow };
}

/** Replaces `old` by `replacement` in a file; fails loudly when `old` is not there. */
export function inject(file: string, old: string, replacement: string): void {
  const source = readFileSync(file, 'utf8');
  if (!source.includes(old)) throw new Error(`${file}: the code to inject into was not found`);
  writeFileSync(file, source.replace(old, replacement));
}
