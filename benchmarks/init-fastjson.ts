/**
 * A new user's path on a real 100-benchmark Go suite (BENCHMARKS.md, "`duetkit init` on
 * fastjson"): a git repository of valyala/fastjson v1.6.10 (the copy `npm run bench:suites --
 * --prepare` fetched through the module proxy) whose last commit is the same code (`--case aa`)
 * or the slowed copy (`--case slow`), then `duetkit init` in it, then the scenario init wrote,
 * run once as written with `--fail-on regression`, both by the committed bundle (`dist/cli.js`).
 * Appends the run to benchmarks/results/init-fastjson.json: init's budget, the wall time, the
 * exit status, every benchmark's verdict, interval and pairs.
 *
 *   node --import tsx benchmarks/init-fastjson.ts --case aa|slow
 *
 * Needs a quiet machine: run it under `flock -x /tmp/bench.lock`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ComparisonReport } from '../src/contracts/comparison.js';
import { cacheDir } from './suites/suite.js';

const argv = process.argv.slice(2);
const kase = argv[argv.indexOf('--case') + 1];
if (kase !== 'aa' && kase !== 'slow') {
  console.error(`--case: got ${JSON.stringify(kase)}; expected aa or slow`);
  process.exit(2);
}
const root = path.join(cacheDir(), 'go-fastjson-v1.6.10');
if (!existsSync(path.join(root, 'base'))) {
  console.error(`${root}/base is missing: run npm run bench:suites -- --prepare first`);
  process.exit(2);
}
const OUT = 'benchmarks/results/init-fastjson.json';
// the committed bundle, what `npx duetkit` runs (tsx would resolve from the repository's cwd)
const cli = path.resolve('dist/cli.js');
const repo = mkdtempSync(path.join(os.tmpdir(), 'duetkit-init-fastjson-'));
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
const copy = (from: string): void => {
  for (const entry of readdirSync(repo)) {
    if (entry !== '.git') rmSync(path.join(repo, entry), { recursive: true });
  }
  cpSync(from, repo, { recursive: true });
  execFileSync('chmod', ['-R', 'u+w', repo]);
};
try {
  git('init', '-q');
  copy(path.join(root, 'base'));
  git('add', '-A');
  git('commit', '-q', '-m', 'fastjson v1.6.10');
  copy(path.join(root, kase === 'aa' ? 'aa' : 'slow'));
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', kase === 'aa' ? 'the same code' : 'slowed');
  const init = spawnSync(process.execPath, [cli, 'init', '--dir', repo, '--no-input'], {
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`duetkit init failed: ${init.stderr}`);
  const scenario = readFileSync(path.join(repo, 'benchmarks', 'duetkit.yml'), 'utf8');
  const budget = /^budget: (\S+)/m.exec(scenario)?.[1] ?? null;
  const results = path.join(repo, '.duetkit-results');
  const t0 = Date.now();
  const run = spawnSync(
    process.execPath,
    [
      cli,
      'run',
      path.join('benchmarks', 'duetkit.yml'),
      '--fail-on',
      'regression',
      '--out',
      results,
    ],
    { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const wallSeconds = (Date.now() - t0) / 1000;
  if (!existsSync(path.join(results, 'comparison.json'))) {
    throw new Error(`duetkit run wrote no report (exit ${run.status}): ${run.stderr.slice(-2000)}`);
  }
  const report = JSON.parse(
    readFileSync(path.join(results, 'comparison.json'), 'utf8'),
  ) as ComparisonReport;
  const primary = report.results.filter(
    (r) => r.version !== 'base' && r.derivedFrom === undefined && r.exact === undefined,
  );
  const entry = {
    label: `${kase === 'aa' ? 'A/A' : 'slowed'}, ${new Date().toISOString()}, this session's design`,
    case: kase,
    budget,
    exitStatus: run.status,
    wallSeconds,
    stopReason: report.stopReason,
    summary: report.summary,
    efficiency: report.efficiency ?? null,
    results: primary.map((r) => ({
      benchmark: r.benchmark,
      verdict: r.comparison?.verdict ?? (r.unmeasured != null ? 'unmeasured' : 'error'),
      change: r.comparison?.change ?? null,
      ci: r.comparison === null ? null : [r.comparison.ci.lower, r.comparison.ci.upper],
      pairs: r.comparison?.n.base ?? 0,
    })),
  };
  const stored = JSON.parse(readFileSync(OUT, 'utf8')) as { runs: unknown[] };
  stored.runs.push(entry);
  writeFileSync(OUT, `${JSON.stringify(stored, null, 1)}\n`);
  const s = report.summary;
  console.log(
    `${entry.label}: budget ${budget}, exit ${run.status}, ${wallSeconds.toFixed(0)} s; ` +
      `${s.unchanged} unchanged, ${s.inconclusive} inconclusive, ${s.regression} regression, ` +
      `${s.improvement} improvement, ${s.error} error, ${s.unmeasured} unmeasured`,
  );
} finally {
  rmSync(repo, { recursive: true, force: true });
}
