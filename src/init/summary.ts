import path from 'node:path';
import { formatArgv } from '../scenario/argv.js';
import type { InitPlan } from './init.js';
import { LOCAL_BASE_REF, LOCAL_HEAD_REF } from './scenario-file.js';

/**
 * What `duetkit init` prints: the tool it chose and why, each file written (or, with
 * `dryRun`, each file's text), what to check, and the commands to run next. Paths are
 * relative to `cwd`, where the user typed the command.
 */
export function describeInit(planned: InitPlan, cwd: string, dryRun: boolean): string {
  const { plan } = planned;
  const lines: string[] = [`found ${plan.tool}: ${plan.evidence}`];
  for (const other of planned.others) lines.push(`also found ${other.tool}: ${other.evidence}`);
  for (const file of planned.files) {
    const shown = shortPath(cwd, file.path);
    if (dryRun) {
      lines.push(`would write ${shown}${file.exists ? ' (exists: needs --force)' : ''}:`);
      lines.push(
        ...file.text
          .trimEnd()
          .split('\n')
          .map((l) => `  ${l}`),
      );
    } else {
      lines.push(`${file.exists ? 'replaced' : 'wrote'} ${shown}`);
    }
  }
  const notes = [...plan.notes];
  if (planned.files.some((f) => /\.github\/workflows\//.test(f.path))) {
    const text = planned.files.map((f) => f.text).join('\n');
    if (/uses: OWNER\//.test(text)) {
      notes.push(
        "the workflow says uses: OWNER/duetkit@v1: put the action's owner in place of OWNER (or pass --action)",
      );
    }
  }
  if (notes.length > 0) lines.push('check:', ...notes.map((n) => `  - ${n}`));
  lines.push('next:', ...nextSteps(planned, cwd).map((s) => `  ${s}`));
  return `${lines.join('\n')}\n`;
}

function nextSteps(planned: InitPlan, cwd: string): string[] {
  const run = `npx duetkit run ${shortPath(cwd, planned.scenarioPath)}`;
  const compared = `# ${LOCAL_HEAD_REF} against ${LOCAL_BASE_REF}, here`;
  if (planned.repoRoot === null) {
    return [
      `# ${shortPath(cwd, path.dirname(planned.scenarioPath))} is not in a git repository; the scenario compares git refs:`,
      'git init && git add -A && git commit -m "Initial commit"',
      `# then, from the second commit on: ${run}`,
    ];
  }
  const inRepo = !path.relative(planned.repoRoot, cwd).startsWith('..');
  const add = planned.files.map((f) =>
    inRepo ? shortPath(cwd, f.path) : path.relative(planned.repoRoot!, f.path),
  );
  const commit = `git add ${formatArgv(add)} && git commit -m "Benchmark pull requests with duetkit"`;
  const steps = [inRepo ? commit : `cd ${shortPath(cwd, planned.repoRoot)} && ${commit}`];
  if (planned.hasCommit) steps.push(`${run}   ${compared}`);
  else steps.push(`# the repository has no commit yet: ${run} works from its second commit on`);
  return steps;
}

function shortPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative === '' ? '.' : relative.startsWith('..') ? file : relative;
}
