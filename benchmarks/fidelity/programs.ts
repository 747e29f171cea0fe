/**
 * The fidelity benchmark's programs (benchmarks/fidelity/programs/), built once into a work
 * directory: the C program, the Go command and Go test binary, and the Node program. Each runs
 * N steps of the same dependent xorshift chain, so +1% work is exactly 1% more steps.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const SOURCE = path.resolve('benchmarks/fidelity/programs');

export interface Programs {
  dir: string;
  /** work.c: `work [--jsonl|--serve|--serve-ok] [N]`. */
  c: string;
  /** The Go command: `work-go [N]`. */
  goCommand: string;
  /** The Go test binary: `work.test -test.bench Work ...`, N from the environment. */
  goTest: string;
  /** Node's work.mjs. */
  node: string;
  /** The Node.js executable that runs it (the one running this benchmark). */
  nodeBin: string;
  /** duetkit/harness (dist/harness.js), imported by work.mjs --serve. */
  harness: string;
}

export function buildPrograms(dir: string): Programs {
  mkdirSync(dir, { recursive: true });
  const c = path.join(dir, 'work');
  execFileSync('cc', ['-O2', '-o', c, path.join(SOURCE, 'work.c')]);
  const go = path.join(SOURCE, 'go');
  const goEnv = { ...process.env, GOFLAGS: '-buildvcs=false' };
  const goCommand = path.join(dir, 'work-go');
  execFileSync('go', ['build', '-o', goCommand, './cmd/work'], { cwd: go, env: goEnv });
  const goTest = path.join(dir, 'work.test');
  execFileSync('go', ['test', '-c', '-o', goTest, '.'], { cwd: go, env: goEnv });
  const node = path.join(dir, 'work.mjs');
  copyFileSync(path.join(SOURCE, 'work.mjs'), node);
  return {
    dir,
    c,
    goCommand,
    goTest,
    node,
    nodeBin: process.execPath,
    harness: path.resolve('dist/harness.js'),
  };
}

/** Chain steps per millisecond of each language, measured alone on `cpu`. */
export interface StepRates {
  c: number;
  go: number;
  node: number;
}

/**
 * Measures how many steps each language runs per millisecond, from the programs' own
 * clocks (C: --jsonl; Go: the benchmark's ns/op; Node: the harness's self-timed reply), so
 * that a size of 10 ms means about 10 ms of chain in every language.
 */
export function measureStepRates(programs: Programs, cpu: number): StepRates {
  const probe = 2_000_000;
  const pinned = (argv: string[], env: NodeJS.ProcessEnv = {}): string =>
    execFileSync('taskset', ['-c', String(cpu), ...argv], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const c = median(
    Array.from({ length: 5 }, () => {
      const line = pinned([programs.c, '--jsonl', String(probe)]);
      return probe / (JSON.parse(line) as { value: number }).value;
    }),
  );
  const goOut = pinned(
    [programs.goTest, '-test.run', '^$', '-test.bench', 'Work', '-test.benchtime', '20x'],
    { N: String(probe) },
  );
  const nsPerOp = Number(/BenchmarkWork\S*\s+\d+\s+([\d.]+) ns\/op/.exec(goOut)?.[1]);
  const go = probe / (nsPerOp / 1e6);
  const script =
    `const t0=process.hrtime.bigint();` +
    `let x=0x2545f491;for(let i=0;i<${probe};i++){x^=x<<13;x^=x>>>17;x^=x<<5;}` +
    `console.log(Number(process.hrtime.bigint()-t0)/1e6, x)`;
  const node = median(
    Array.from({ length: 5 }, () => {
      const ms = Number(pinned([programs.nodeBin, '-e', script]).split(' ')[0]);
      return probe / ms;
    }),
  );
  if (![c, go, node].every((x) => Number.isFinite(x) && x > 0)) {
    throw new Error(`could not measure step rates: c ${c}, go ${go}, node ${node}`);
  }
  return { c, go, node };
}
