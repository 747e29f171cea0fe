import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, type UsualResult } from './suite.js';

/** benchstat, pinned, built once into the cache with `go install` (through the module proxy). */
const BENCHSTAT_VERSION = 'v0.0.0-20260908200009-22c9c6c9d4da';
export function benchstat(env: NodeJS.ProcessEnv): string {
  const dir = path.join(cacheDir(), `benchstat-${BENCHSTAT_VERSION}`);
  const bin = path.join(dir, 'benchstat');
  if (!existsSync(bin)) {
    execFileSync('go', ['install', `golang.org/x/perf/cmd/benchstat@${BENCHSTAT_VERSION}`], {
      env: { ...env, GOBIN: dir },
      stdio: 'inherit',
    });
  }
  return bin;
}

const COUNT = 10;

/**
 * The Go community's usual method for a suite of `benchmarks` benchmarks (sub-benchmarks
 * counted): `go test -bench . -count 10` of base, then of head, and benchstat (α = 0.05);
 * -benchtime sized so that both take `seconds` together. `flags`: more `go test` flags
 * (e.g. -benchmem), as the suite's own command has them.
 */
export function benchstatMethod(
  benchmarks: number,
  flags: string[] = [],
): (base: string, head: string, seconds: number, env: NodeJS.ProcessEnv) => UsualResult {
  return (base, head, seconds, env) => {
    // Go runs a benchmark about 1.5× its benchtime (the b.N ramp-up)
    const perRun = Math.max(0.005, seconds / (2 * COUNT * benchmarks * 1.5));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-benchstat-'));
    const t0 = Date.now();
    const run = (cwd: string): string =>
      execFileSync(
        'go',
        [
          'test',
          '-run',
          '^$',
          '-bench',
          '.',
          ...flags,
          '-count',
          String(COUNT),
          '-benchtime',
          `${perRun.toFixed(3)}s`,
        ],
        { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 },
      );
    writeFileSync(path.join(dir, 'base.txt'), run(base));
    writeFileSync(path.join(dir, 'head.txt'), run(head));
    const spent = (Date.now() - t0) / 1000;
    const csv = execFileSync(
      process.env.BENCHSTAT ?? 'benchstat',
      ['-format', 'csv', 'base.txt', 'head.txt'],
      {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 1 << 26,
      },
    );
    const changed: Record<string, boolean> = {};
    // the first table is sec/op: name,base,CI,head,CI,vs base,P
    for (const line of csv.split(/\n\s*\n/)[0]!.split('\n')) {
      const cells = csvCells(line);
      if (cells.length < 6 || !/^[A-Z]/.test(cells[0]!) || cells[0] === 'geomean') continue;
      const name = `Benchmark${cells[0]!.replace(/-\d+$/, '')}`;
      changed[name] = cells[5]!.trim() !== '~' && cells[5]!.trim() !== '';
    }
    return {
      method: `benchstat, go test -count ${COUNT} -benchtime ${perRun.toFixed(3)}s, base then head`,
      seconds: spent,
      changed,
      detail: csv.split(/\n\s*\n/)[0]!,
    };
  };
}

/** The cells of a CSV line (benchstat quotes names with commas or quotes: `"a ""b"""`). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
