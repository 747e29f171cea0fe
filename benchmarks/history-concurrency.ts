/**
 * WRITERS processes publish RUNS runs each to one bare repository at the same time (default
 * 8 × 25). Checks that all WRITERS × RUNS entries are there, that the derived files are what
 * the entries say (rebuilt from scratch and compared file by file), and that no push was
 * forced (every update of the branch in the remote's reflog is a fast-forward). Prints the
 * time, the per-publish latency and the retries; writes benchmarks/results/history-concurrency.json.
 * Run: npm run bench:history -- [WRITERS] [RUNS] [BENCHMARKS]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { byMonth, monthFiles, RECENT_RUNS, suiteIndex, timeOfName } from '../src/history/derive.js';
import { readHistory } from '../src/history/read.js';
import { median, quantile } from '../src/stats/descriptive.js';
import { positive } from './args.js';

const writers = positive('WRITERS', process.argv[2] ?? '8');
const runs = positive('RUNS', process.argv[3] ?? '25');
const benchmarks = positive('BENCHMARKS', process.argv[4] ?? '20');
const ROOT = path.resolve(import.meta.dirname, '..');

interface Line {
  writer: number;
  run: number;
  ms: number;
  attempts?: number;
  retries?: number;
  status?: string;
  error?: string;
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-concurrency-'));
  const remote = path.join(dir, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  // As on GitHub: partial clones allowed; and a reflog of every update, to check for forced ones.
  git(remote, 'config', 'uploadpack.allowFilter', 'true');
  git(remote, 'config', 'core.logAllRefUpdates', 'always');
  const started = performance.now();
  const lines: Line[] = [];
  await Promise.all(
    Array.from(
      { length: writers },
      (_, w) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(
            path.join(ROOT, 'node_modules/.bin/node'),
            [
              '--import',
              'tsx',
              path.join(ROOT, 'benchmarks/history/publisher.ts'),
              remote,
              String(w),
              String(runs),
              String(benchmarks),
            ],
            { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
          );
          let out = '';
          child.stdout.on('data', (c: Buffer) => (out += c.toString()));
          child.on('exit', (code) => {
            lines.push(
              ...out
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l) as Line),
            );
            if (code === 0) resolve();
            else reject(new Error(`writer ${w} exited with ${code}`));
          });
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;

  const failed = lines.filter((l) => l.error !== undefined);
  if (process.env.KEEP) console.error(`remote: ${remote}`);
  const read = await readHistory({ remote });
  const ids = new Set(read.entries.map((e) => e.runId));
  const expected = writers * runs;

  // The derived files on the branch against the same files rebuilt from all the entries.
  const mismatches: string[] = [];
  const onBranch = (file: string): string => git(remote, 'show', `gh-pages:duetkit/${file}`);
  for (const [month, stored] of byMonth(read.stored)) {
    for (const [file, text] of monthFiles('concurrency', month, stored)) {
      if (onBranch(file) !== text) mismatches.push(file);
    }
  }
  const counts = new Map<string, number>();
  for (const s of read.stored)
    counts.set(s.path.split('/')[2]!, (counts.get(s.path.split('/')[2]!) ?? 0) + 1);
  const first = timeOfName(path.posix.basename(read.stored[0]!.path).slice(0, 16));
  const index = suiteIndex('concurrency', read.stored.slice(-RECENT_RUNS), counts, first);
  const key = read.stored[0]!.path.split('/')[1]!;
  if (onBranch(`data/${key}/index.json`) !== JSON.stringify(index)) mismatches.push('index.json');
  const suites = JSON.parse(onBranch('suites.json'));
  if (suites.suites[0].runs !== expected) mismatches.push('suites.json');

  // Every update of the branch moved it forward: the old tip is an ancestor of the new one.
  const reflog = git(remote, 'reflog', 'show', '--format=%H', 'refs/heads/gh-pages').split('\n');
  let forced = 0;
  for (let i = 0; i + 1 < reflog.length; i++) {
    try {
      git(remote, 'merge-base', '--is-ancestor', reflog[i + 1]!, reflog[i]!);
    } catch {
      forced++;
    }
  }
  const commits = Number(git(remote, 'rev-list', '--count', 'gh-pages'));
  const ok = lines.filter((l) => l.error === undefined);
  const ms = ok.map((l) => l.ms).sort((a, b) => a - b);
  const retries = ok.reduce((n, l) => n + (l.retries ?? 0), 0);
  const result = {
    writers,
    runs,
    benchmarks,
    seconds: +seconds.toFixed(1),
    published: ok.filter((l) => l.status === 'published').length,
    failed: failed.length,
    entries: read.entries.length,
    distinctRunIds: ids.size,
    warnings: read.warnings.length,
    derivedMismatches: mismatches,
    commits,
    branchUpdates: reflog.length,
    forcedUpdates: forced,
    retries,
    maxAttempts: Math.max(...ok.map((l) => l.attempts ?? 0)),
    attempts: Object.fromEntries(
      [...new Set(ok.map((l) => l.attempts ?? 0))]
        .sort((a, b) => a - b)
        .map((a) => [a, ok.filter((l) => l.attempts === a).length]),
    ),
    publishMs: {
      median: Math.round(median(ms)),
      p90: Math.round(quantile(ms, 0.9)),
      max: Math.round(ms.at(-1)!),
    },
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      load: os.loadavg().map((x) => +x.toFixed(2)),
    },
  };
  console.log(JSON.stringify(result, null, 2));
  await writeFile(
    path.join(ROOT, 'benchmarks/results/history-concurrency.json'),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  await rm(dir, { recursive: true, force: true });
  const good =
    failed.length === 0 &&
    read.entries.length === expected &&
    ids.size === expected &&
    mismatches.length === 0 &&
    forced === 0 &&
    commits === expected;
  if (!good) {
    console.error('FAILED: see above');
    process.exitCode = 1;
  }
}

await main();
