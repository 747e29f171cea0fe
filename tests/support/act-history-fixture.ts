import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { buildDashboard } from '../../scripts/build-dashboard.mjs';
import { localizeWorkflow, runAct, type ActRun } from './act.js';
import { makeActionRepo, type ActionRepo } from './action-repo.js';
import { bundleAction, ROOT } from './bundle-action.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

/**
 * What the act tests of the history and the nightly share: the action bundled with its
 * dashboard, a repository of action-repo.ts holding the workflows, a local bare repository
 * as the history remote (`vars.HISTORY_REMOTE`), and the fake GitHub API.
 */
export interface ActHistoryFixture {
  work: string;
  /** The bundled action (its dashboard in `dashboard/`). */
  dist: string;
  repo: ActionRepo;
  /** The bare history repository. */
  remote: string;
  github: FakeGitHub;
  /** One workflow run under act, the history remote and the fake API wired in. */
  act(options: {
    event: string;
    payload: Record<string, unknown>;
    workflow: string;
    env?: Record<string, string>;
    timeoutMs?: number;
  }): Promise<ActRun>;
  close(): Promise<void>;
}

/**
 * Sets the fixture up: `files` are the repository's extra files (its workflows); `seed` may
 * write to the history remote before the fake API starts.
 */
export async function startActHistoryFixture(
  prefix: string,
  files: Record<string, string>,
  seed?: (fixture: { dist: string; remote: string }) => Promise<void>,
): Promise<ActHistoryFixture> {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  const dist = path.join(work, 'dist');
  await bundleAction(dist);
  await buildDashboard(path.join(dist, 'dashboard'));
  const repo = makeActionRepo(dist, files);
  const remote = path.join(work, 'history.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  await seed?.({ dist, remote });
  const github = await startFakeGitHub();
  return {
    work,
    dist,
    repo,
    remote,
    github,
    act: (options) =>
      runAct(repo.dir, { ...options, apiUrl: github.url, vars: { HISTORY_REMOTE: remote } }),
    async close() {
      await github.close();
      rmSync(work, { recursive: true, force: true });
      rmSync(repo.dir, { recursive: true, force: true });
    },
  };
}

type Step = Record<string, unknown> & { id?: string; with?: Record<string, unknown> };

/**
 * examples/workflows/nightly.yml made runnable here: its upload steps dropped, every step of
 * the action given the local history remote, then `adjust` applied to each of those steps;
 * `extra` steps are appended.
 */
export function nightlyExample(adjust: (step: Step) => void, extra: Step[] = []): string {
  const workflow = parse(localizeWorkflow(path.join(ROOT, 'examples/workflows/nightly.yml'))) as {
    jobs: { nightly: { steps: Step[] } };
  };
  const steps = workflow.jobs.nightly.steps.filter(
    (s) => s.name === undefined || !String(s.name).startsWith('upload'),
  );
  for (const s of steps) {
    if (s.uses !== './') continue;
    s.with = { ...s.with, 'history-repository': '${{ vars.HISTORY_REMOTE }}' };
    adjust(s);
  }
  workflow.jobs.nightly.steps = [...steps, ...extra];
  return stringify(workflow, { lineWidth: 0 });
}

/** A scheduled night of the nightly workflow: a new run id, a new history entry. */
export const scheduledNight = (runId: string, timeoutMs: number) => ({
  env: { GITHUB_RUN_ID: runId },
  event: 'schedule',
  payload: { schedule: '17 3 * * *', repository: { full_name: 'octo/bench' } },
  workflow: '.github/workflows/nightly.yml',
  timeoutMs,
});
