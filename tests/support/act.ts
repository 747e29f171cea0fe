import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT } from './bundle-action.js';

const TOOLS = path.join(ROOT, '.tools/bin');

/** A binary .ci/setup-action.sh installs; a missing one fails the test, never skips it. */
export function requireTool(name: 'act' | 'actionlint'): string {
  const file = path.join(TOOLS, name);
  if (!existsSync(file)) {
    throw new Error(
      `${file} is missing: run "npm run setup" (bash .ci/setup.sh, which npm run test:all runs first; go install, pinned)`,
    );
  }
  return file;
}

export interface ActRun {
  code: number;
  output: string;
}

/**
 * Runs one workflow of `repo` with act in host mode (steps run on this machine, no
 * container), Node 24 from node_modules first on PATH, the GitHub API at `apiUrl`.
 */
export function runAct(
  repo: string,
  options: {
    event: string;
    payload: Record<string, unknown>;
    workflow: string;
    apiUrl: string;
    env?: Record<string, string>;
    /** Configuration variables (`vars.NAME`). */
    vars?: Record<string, string>;
    /** Default 180 s. */
    timeoutMs?: number;
  },
): Promise<ActRun> {
  const eventFile = path.join(repo, '..', `${path.basename(repo)}-event.json`);
  writeFileSync(eventFile, JSON.stringify(options.payload));
  const args = [
    options.event,
    '-P',
    'ubuntu-latest=-self-hosted',
    '--no-cache-server',
    '-e',
    eventFile,
    '-W',
    options.workflow,
    '--env',
    `GITHUB_API_URL=${options.apiUrl}`,
    '-s',
    'GITHUB_TOKEN=ghs_fake_token_for_tests',
    ...Object.entries(options.env ?? {}).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ...Object.entries(options.vars ?? {}).flatMap(([k, v]) => ['--var', `${k}=${v}`]),
  ];
  return new Promise((resolve) => {
    execFile(
      requireTool('act'),
      args,
      {
        cwd: repo,
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 180_000,
        env: {
          ...process.env,
          PATH: `${path.join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
          ACT_DISABLE_VERSION_CHECK: '1',
          DO_NOT_TRACK: '1',
        },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

type Step = Record<string, unknown>;

/**
 * A user-facing example workflow made runnable offline: the published action becomes the
 * local one (`uses: ./`), actions/setup-node and actions/cache go (Node 24 is on PATH; act
 * has no cache server here), and the artifact
 * actions become copies to and from `$DUETKIT_ARTIFACTS` (act has no artifact server here).
 * actions/checkout stays (and is added where the example has none, since `uses: ./` needs the
 * workspace): act recognises a checkout of the repository itself and uses the local copy.
 */
export function localizeWorkflow(
  file: string,
  replaceInputs: Record<string, string | null> = {},
): string {
  const workflow = parse(readFileSync(file, 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  for (const job of Object.values(workflow.jobs)) {
    job.steps = job.steps.flatMap((step): Step[] => {
      const uses = String(step.uses ?? '');
      const withs = (step.with ?? {}) as Record<string, string>;
      // Node 24 is on PATH; act has no cache server here (a cache miss changes nothing).
      if (uses.startsWith('actions/setup-node@') || uses.startsWith('actions/cache@')) return [];
      if (uses.startsWith('OWNER/duetkit@')) {
        const inputs = { ...withs };
        for (const [k, v] of Object.entries(replaceInputs)) {
          if (v === null) delete inputs[k];
          else inputs[k] = v;
        }
        return [{ ...step, uses: './', with: inputs }];
      }
      if (uses.startsWith('actions/upload-artifact@')) {
        return [
          {
            name: `upload ${withs.name} (local copy)`,
            ...(step.if === undefined ? {} : { if: step.if }),
            run: `mkdir -p "$DUETKIT_ARTIFACTS/${withs.name}" && cp -R "${withs.path}/." "$DUETKIT_ARTIFACTS/${withs.name}/"`,
          },
        ];
      }
      if (uses.startsWith('actions/download-artifact@')) {
        return [
          {
            name: `download ${withs.name} (local copy)`,
            run: `mkdir -p "${withs.path}" && cp -R "$DUETKIT_ARTIFACTS/${withs.name}/." "${withs.path}/"`,
          },
        ];
      }
      return [step];
    });
    // `uses: ./` reads the action from the workspace, which only a checkout fills (for the
    // published action, the runner downloads it instead).
    if (!job.steps.some((s) => String(s.uses ?? '').startsWith('actions/checkout@'))) {
      job.steps.unshift({ uses: 'actions/checkout@v4' });
    }
  }
  return stringify(workflow, { lineWidth: 0 });
}
