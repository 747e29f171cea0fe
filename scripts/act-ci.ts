/**
 * Runs .github/workflows/ci.yml under act in host mode, on a clone of HEAD: the workflow's
 * steps on this machine, `.ci/run` included (npm ci, npm run all, the dist check), as GitHub
 * would. Not part of `npm run test:all` — ci.yml runs the test suite itself, so a test running it
 * would run itself. actions/setup-node and actions/cache are left out (no GitHub here: Node 24
 * comes from node_modules/.bin, and a cache miss changes nothing).
 *
 *   node --import tsx scripts/act-ci.ts     (about as long as .ci/run)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localizeWorkflow, runAct } from '../tests/support/act.js';

const root = process.cwd();
const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'duetkit-act-ci-')), 'duetkit');
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@localhost', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
execFileSync('git', ['clone', '-q', root, dir]);
writeFileSync(
  path.join(dir, '.github/workflows/ci.yml'),
  localizeWorkflow(path.join(root, '.github/workflows/ci.yml')),
);
git('commit', '-q', '-am', 'ci.yml without setup-node and cache (act, offline)');
git('remote', 'set-url', 'origin', 'https://github.com/octo/duetkit.git');
const started = Date.now();
const result = await runAct(dir, {
  event: 'push',
  payload: { ref: 'refs/heads/main', after: git('rev-parse', 'HEAD').trim() },
  workflow: '.github/workflows/ci.yml',
  apiUrl: 'http://127.0.0.1:9',
  timeoutMs: 90 * 60_000,
});
const log = path.join(root, '.duetkit', 'act-ci.log');
writeFileSync(log, result.output);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  `act: ci.yml exited ${result.code} after ${minutes} min; the log is in ${path.relative(root, log)}`,
);
console.log(
  result.output
    .split('\n')
    .filter((l) => /(Success|Failure) - |Job (succeeded|failed)/.test(l))
    .join('\n'),
);
rmSync(path.dirname(dir), { recursive: true, force: true });
process.exitCode = result.code;
