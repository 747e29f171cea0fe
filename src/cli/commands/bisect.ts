import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { runBisect } from '../../pipeline/bisect-run.js';
import { renderBisect } from '../../bisect/render.js';
import { bisectModeOf, bisectScenario } from '../../bisect/workload.js';
import { abortOnSignals } from '../../runner/signals.js';
import { MAX_SEED } from '../../stats/rng.js';
import type { CliContext } from '../context.js';
import { choiceParser, integerParser, parseLevel, parseThreshold } from '../options.js';

interface Flags {
  good: string;
  bad: string;
  scenario?: string;
  benchmark?: string;
  threshold?: number;
  budget?: number;
  firstParent: boolean;
  json?: boolean;
  out?: string;
  seed?: number;
  iterations?: number;
  warmup?: number;
  format?: string;
  setup?: string;
  timeout?: string;
  isolation?: 'auto' | 'cpuset' | 'taskset' | 'none';
  level?: number;
  mode?: 'duet' | 'rmit' | 'auto';
}

const HELP = `
Steps: a duet of good against bad first — unless it calls a change beyond the threshold,
nothing is bisected (exit 0). Then each probe is a duet of a candidate commit against the
nearer end, classified like good, like bad, in between (the change is spread over several
commits) or unclear (more pairs, then skipped); commits that do not build are skipped like
git bisect skip; each commit is checked out once as a worktree and built once. Every step
found ends with a confirmation duet of its parent against it. About log2(N) + 2 duets.

Examples:
  duetkit bisect --good v1.2.0 --bad main --setup 'make' -- ./bench --quick
  duetkit bisect --good abc123 --bad def456 --scenario scenarios/parse.yml --benchmark /parse/
See docs/bisect.md.`;

export function registerBisect(program: Command, ctx: CliContext): void {
  program
    .command('bisect')
    .description(
      'Find the commit that changed a benchmark between a good and a bad commit, with duets: duetkit bisect --good A --bad B -- CMD',
    )
    .requiredOption('--good <ref>', 'a commit without the change (older)')
    .requiredOption('--bad <ref>', 'a commit with the change (newer; good must be its ancestor)')
    .option('--scenario <file>', 'take the workload from a scenario file instead of -- CMD')
    .option('--benchmark <pattern>', 'the benchmark to follow: exact name or /regex/')
    .option(
      '--threshold <t>',
      'practical threshold, e.g. 5% (default: the scenario’s, 5%)',
      parseThreshold,
    )
    .option(
      '--budget <duets>',
      'most duets in all (default: three times log2(N) + 2, + 2 with --mode auto)',
      integerParser(1, 10_000),
    )
    .option('--no-first-parent', 'also search inside a merge the first-parent search names')
    .option('--json', 'print the report JSON instead of the text')
    .option('--out <file>', 'also write the report JSON to this file')
    .option('--seed <n>', 'PRNG seed of the duets (recorded)', integerParser(0, MAX_SEED))
    .option(
      '--iterations <n>',
      'pairs per duet (doubled for an unclear probe)',
      integerParser(2, 1_000_000),
    )
    .option('--warmup <n>', 'warm-up iterations, discarded', integerParser(0, 1_000_000))
    .option('--format <name>', 'read the metrics from the output (default: wall time)')
    .option('--setup <command>', 'build command run once in each commit’s checkout')
    .option('--timeout <duration>', 'per-iteration time limit, e.g. 60s')
    .option(
      '--isolation <kind>',
      'auto|cpuset|taskset|none',
      choiceParser(['auto', 'cpuset', 'taskset', 'none'] as const),
    )
    .option('--level <level>', 'confidence level, e.g. 0.99', parseLevel)
    .option(
      '--mode <mode>',
      'duet (both commits at once), rmit (one at a time, interleaved rounds) or auto (both measure good against bad; the more precise per second probes). Default: auto with -- CMD, the scenario’s mode with --scenario',
      choiceParser(['duet', 'rmit', 'auto'] as const),
    )
    .argument('[command...]', 'the benchmark command, after -- (or --scenario)')
    .addHelpText('after', HELP)
    .action(async (argv: string[], flags: Flags) => {
      const { mode, chooseMode } = bisectModeOf(flags.mode, flags.scenario !== undefined);
      const scenario = await bisectScenario({
        ...(flags.scenario === undefined ? {} : { scenarioFile: flags.scenario }),
        cwd: ctx.cwd,
        command: argv,
        ...(flags.setup === undefined ? {} : { setup: flags.setup }),
        ...(flags.format === undefined ? {} : { format: flags.format }),
        ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
        ...(flags.warmup === undefined ? {} : { warmup: flags.warmup }),
        ...(flags.timeout === undefined ? {} : { timeout: flags.timeout }),
        ...(flags.isolation === undefined ? {} : { isolation: flags.isolation }),
        ...(flags.level === undefined ? {} : { level: flags.level }),
        ...(mode === undefined ? {} : { mode }),
        ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }),
        source: 'the bisect options',
      });
      const { signal, dispose } = abortOnSignals();
      try {
        const report = await runBisect({
          repo: ctx.cwd,
          good: flags.good,
          bad: flags.bad,
          scenario,
          benchmark: flags.benchmark ?? null,
          threshold: flags.threshold ?? scenario.analysis.threshold,
          budget: flags.budget ?? null,
          firstParent: flags.firstParent,
          chooseMode,
          env: ctx.env,
          signal,
          ...(flags.seed === undefined ? {} : { seed: flags.seed }),
          onNotice: (message) => ctx.stderr(`warning: ${message}\n`),
          log: (line) => ctx.stderr(`${line}\n`),
        });
        const json = `${JSON.stringify(report, null, 2)}\n`;
        if (flags.out !== undefined) {
          const file = path.resolve(ctx.cwd, flags.out);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, json);
        }
        ctx.stdout(flags.json === true ? json : renderBisect(report));
      } finally {
        dispose();
      }
    });
}
