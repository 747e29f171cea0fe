import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { analyzeSamples } from '../../analyze/analyze.js';
import { exitStatus, type FailOn } from '../../analyze/gate.js';
import { describeReport } from '../../report/terminal.js';
import { RunError } from '../../process/errors.js';
import { renderProgress } from '../../runner/progress.js';
import { runScenario } from '../../pipeline/local-run.js';
import { fileSaver, isEmpty, removeStateFile } from '../../cluster/state.js';
import { loadCluster } from '../../pipeline/load-cluster.js';
import { writeSamples } from '../../pipeline/write-samples.js';
import { explainReport, profilingFor, PROFILES_FILE } from '../../pipeline/profile-run.js';
import { PROFILE_POLICIES, type ProfilePolicy } from '../../scenario/profile-schema.js';
import { abortOnSignals } from '../../runner/signals.js';
import { loadScenarioFile, type LoadedScenario } from '../../scenario/load.js';
import { MAX_SEED } from '../../stats/rng.js';
import type { CliContext } from '../context.js';
import type { ProfilesFile } from '../../contracts/profile.js';
import { choiceParser, integerParser } from '../options.js';

export interface RunFlags {
  out: string;
  seed?: number;
  json?: boolean;
  failOn: FailOn;
  profile?: ProfilePolicy;
}

export const DEFAULT_OUT = '.duetkit/latest';
const FAIL_ON = ['regression', 'inconclusive', 'never'] as const;

export function registerRun(program: Command, ctx: CliContext): void {
  const command = program
    .command('run')
    .description('Run a scenario (duet, rmit, mit, mct or single) and compare the versions.')
    .argument('<scenario>', 'scenario file (YAML), see docs/scenario.md');
  addRunOptions(command).action(async (file: string, flags: RunFlags) => {
    await executeRun(await loadScenarioFile(file, ctx.cwd), flags, ctx);
  });
}

/** Options shared by `run` and `compare`. */
export function addRunOptions(command: Command): Command {
  return command
    .option('--out <dir>', 'directory for samples.json and comparison.json', DEFAULT_OUT)
    .option(
      '--seed <n>',
      "PRNG seed (default: the scenario's, else random; recorded)",
      integerParser(0, MAX_SEED),
    )
    .option('--json', 'print the comparison JSON instead of the report')
    .option('--fail-on <what>', `exit 1 on: ${FAIL_ON.join('|')}`, choiceParser(FAIL_ON), 'never')
    .option(
      '--profile <policy>',
      `profile base and head after the verdict: ${PROFILE_POLICIES.join('|')} (default: the scenario's profile, else changed)`,
      choiceParser(PROFILE_POLICIES),
    );
}

/**
 * Runs, saves both JSON files (also for an interrupted or failed run, marked incomplete),
 * prints the report and sets the exit code. Shared by `run` and `compare`.
 */
export async function executeRun(
  loaded: LoadedScenario,
  flags: RunFlags,
  ctx: CliContext,
): Promise<void> {
  const outDir = path.resolve(ctx.cwd, flags.out);
  await mkdir(outDir, { recursive: true });
  const { signal, dispose } = abortOnSignals();
  let lastDraw = 0;
  let samples;
  // A cluster run saves what it created as it goes, for `duetkit cluster delete --state`.
  const stateFile = path.join(outDir, 'cluster-state.json');
  let leftInCluster = false;
  const profiling = profilingFor(loaded.scenario, {
    ...(flags.profile === undefined ? {} : { policy: flags.profile }),
    resultsDir: outDir,
    onWarning: (message) => ctx.stderr(`${ctx.isTTY ? '\r\x1b[2K' : ''}warning: ${message}\n`),
  });
  try {
    samples = await (loaded.scenario.cluster === undefined ? runScenario : clusterRun)(loaded, {
      signal,
      env: ctx.env,
      ...(flags.seed === undefined ? {} : { seed: flags.seed }),
      onIsolation: (report) => {
        const where = report.slots.map((s) => s ?? 'any CPU').join(' | ');
        ctx.stderr(
          `measuring ${loaded.scenario.name} (${loaded.scenario.mode}), isolation ${report.kind}: ${where}\n`,
        );
        for (const warning of report.warnings) ctx.stderr(`warning: ${warning}\n`);
        if (report.requested === 'auto' && !report.kind.startsWith('cgroup')) {
          ctx.stderr('note: `duetkit doctor` says what this machine offers, and why not cgroups\n');
        }
      },
      onNotice: (message) => ctx.stderr(`${ctx.isTTY ? '\r\x1b[2K' : ''}warning: ${message}\n`),
      afterMeasured: profiling.afterMeasured,
      onProgress: (progress) => {
        const now = Date.now();
        if (!ctx.isTTY || (now - lastDraw < 100 && progress.done < progress.total)) return;
        lastDraw = now;
        ctx.stderr(`\r${renderProgress(progress)}`);
      },
    });
  } finally {
    dispose();
    if (ctx.isTTY) ctx.stderr('\r\x1b[2K');
  }
  async function clusterRun(...[scenario, options]: Parameters<typeof runScenario>) {
    // Loaded on demand: the AWS SDK and the Kubernetes client are large.
    const { runInCluster } = await loadCluster();
    return runInCluster(scenario, {
      ...options,
      log: (line) => ctx.stderr(`cluster: ${line}\n`),
      saveState: (state) => {
        leftInCluster = !isEmpty(state);
        if (leftInCluster) fileSaver(stateFile)(state);
        else removeStateFile(stateFile);
      },
    });
  }
  if (leftInCluster) {
    ctx.stderr(
      `warning: the cluster run left resources behind; delete them with: duetkit cluster delete --state ${stateFile}\n`,
    );
  }
  const samplesFile = path.join(outDir, 'samples.json');
  await writeSamples(samplesFile, samples);
  if (samples.stopReason === 'failed' || samples.stopReason === 'interrupted') {
    const exitCode =
      samples.stopReason === 'interrupted' ? (samples.error?.includes('SIGINT') ? 130 : 143) : 1;
    throw Object.assign(
      new RunError(
        `${samples.error ?? 'the run failed'}\nsamples gathered so far (marked incomplete): ${samplesFile}`,
      ),
      { exitCode },
    );
  }
  // The profiles of base and head (profiles.json, already written) explain the report.
  const { profiles } = profiling;
  const { report, files: explainFiles } = await explainReport(
    analyzeSamples(samples),
    samples,
    profiles,
    outDir,
    (message) => ctx.stderr(`warning: ${message}\n`),
  );
  await writeFile(path.join(outDir, 'comparison.json'), `${JSON.stringify(report, null, 2)}\n`);
  const written = [
    samplesFile,
    path.join(outDir, 'comparison.json'),
    ...(profiles === null ? [] : [path.join(outDir, PROFILES_FILE)]),
    ...explainFiles,
  ];
  if (flags.json === true) ctx.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else
    ctx.stdout(
      `${describeReport(report)}${profiles === null ? '' : profilingLine(profiles)}written: ${written.join(', ')}\n`,
    );
  ctx.exitCode = Math.max(ctx.exitCode, exitStatus(report, flags.failOn));
}

/** One line on what profiling did and what it cost. */
function profilingLine(profiles: ProfilesFile): string {
  const taken = profiles.pairs.filter((p) => p.base !== null && p.head !== null).length;
  return `profiles: ${taken} of ${profiles.pairs.length} benchmark(s) profiled (${profiles.policy}) in ${profiles.seconds.toFixed(1)} s\n`;
}
