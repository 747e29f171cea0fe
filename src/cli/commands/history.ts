import path from 'node:path';
import { Option, type Command } from 'commander';
import { readDashboard } from '../../dashboard/assets.js';
import { pruneHistory, type Retention } from '../../history/prune.js';
import { publishRun } from '../../history/publish-run.js';
import { readHistory } from '../../history/read.js';
import type { HistoryEntry } from '../../history/schema.js';
import { VARIABILITY_HISTORY } from '../../variability/history-hooks.js';
import type { CliContext } from '../context.js';
import { addLocationOptions, locationOf, type LocationFlags } from '../history-location.js';
import { integerParser } from '../options.js';
import { registerGabCommands } from './history-gab.js';

/** `duetkit history ...`: the run history on a git branch and its dashboard (docs/history.md). */
export function registerHistory(program: Command, ctx: CliContext): void {
  const history = program
    .command('history')
    .description(
      'The history of runs on a git branch (gh-pages by default) and its dashboard: docs/history.md.',
    );

  addLocationOptions(
    history
      .command('publish')
      .description(
        'Add a run (a results directory) to the history; the same run id twice is a no-op.',
      )
      .argument(
        '<results-dir>',
        'the directory of samples.json and comparison.json (duetkit run --out)',
      ),
  )
    .option(
      '--run-id <id>',
      'the run id (default: the Actions run id and attempt, else a hash of samples.json)',
    )
    .option('--json', 'print the result as JSON')
    .action(async (dir: string, flags: LocationFlags & { runId?: string; json?: boolean }) => {
      const { result, entry } = await publishRun({
        ...locationOf(flags, ctx),
        resultsDir: path.resolve(ctx.cwd, dir),
        repoDir: ctx.cwd,
        ...(flags.runId === undefined ? {} : { runId: flags.runId }),
        dashboard: await readDashboard(),
        ...VARIABILITY_HISTORY,
        log: (line) => ctx.stderr(`${line}\n`),
        warn: (message) => ctx.stderr(`warning: ${message}\n`),
      });
      for (const warning of result.warnings) ctx.stderr(`warning: ${warning}\n`);
      if (flags.json === true) {
        ctx.stdout(
          `${JSON.stringify({ ...result, suite: entry.suite, runId: entry.runId }, null, 2)}\n`,
        );
      } else if (result.status === 'already') {
        ctx.stdout(
          `run ${entry.runId} of ${entry.suite} is already in the history (${result.path}): nothing to do\n`,
        );
      } else {
        const retried =
          result.retries === 0
            ? ''
            : ` after ${result.retries} lost race${result.retries === 1 ? '' : 's'}`;
        ctx.stdout(
          `published ${result.path} to ${flags.remote} (branch ${flags.branch}, commit ${result.commit.slice(0, 12)}${retried})\n`,
        );
      }
    });

  addLocationOptions(
    history.command('list').description('The entries of the history, oldest first.'),
  )
    .option('--suite <name>', 'only this suite')
    .option('--json', 'print {entries, warnings} as JSON')
    .action(async (flags: LocationFlags & { suite?: string; json?: boolean }) => {
      const read = await readHistory({
        ...locationOf(flags, ctx),
        ...(flags.suite === undefined ? {} : { suite: flags.suite }),
      });
      for (const warning of read.warnings) ctx.stderr(`warning: ${warning}\n`);
      if (flags.json === true) {
        ctx.stdout(
          `${JSON.stringify({ entries: read.entries, warnings: read.warnings }, null, 2)}\n`,
        );
        return;
      }
      if (read.tip === null) {
        ctx.stdout(`no history: ${flags.remote} has no branch ${flags.branch}\n`);
        return;
      }
      ctx.stdout(listTable(read.entries));
    });

  addLocationOptions(
    history
      .command('prune')
      .description(
        'Remove whole entries beyond the newest N runs, or older than D days, per suite (one commit per suite).',
      ),
  )
    .addOption(
      new Option('--keep-runs <n>', 'keep the newest N runs of each suite')
        .argParser(integerParser(1, 1_000_000))
        .conflicts('keepDays'),
    )
    .addOption(
      new Option('--keep-days <d>', 'keep the runs of the last D days').argParser(
        integerParser(1, 100_000),
      ),
    )
    .option('--suite <name>', 'only this suite')
    .action(
      async (flags: LocationFlags & { keepRuns?: number; keepDays?: number; suite?: string }) => {
        let retention: Retention;
        if (flags.keepRuns !== undefined) retention = { keepRuns: flags.keepRuns };
        else if (flags.keepDays !== undefined) retention = { keepDays: flags.keepDays };
        else {
          history.commands
            .find((c) => c.name() === 'prune')!
            .error('error: one of --keep-runs or --keep-days is required', { exitCode: 2 });
          return;
        }
        const result = await pruneHistory({
          ...locationOf(flags, ctx),
          retention,
          ...(flags.suite === undefined ? {} : { suite: flags.suite }),
          derivers: VARIABILITY_HISTORY.derivers,
          log: (line) => ctx.stderr(`${line}\n`),
        });
        for (const warning of result.warnings) ctx.stderr(`warning: ${warning}\n`);
        ctx.stdout(
          result.removed.length === 0
            ? 'nothing to prune\n'
            : `removed ${result.removed.length} entr${result.removed.length === 1 ? 'y' : 'ies'} (commit ${result.commit?.slice(0, 12)}):\n${result.removed.map((f) => `  ${f}\n`).join('')}`,
        );
      },
    );

  registerGabCommands(history, ctx);
}

/** One line per entry: when, suite, run, commit, and what its comparisons said. */
function listTable(entries: readonly HistoryEntry[]): string {
  if (entries.length === 0) return 'no entries\n';
  const rows = entries.map((e) => {
    const verdicts = new Map<string, number>();
    for (const b of e.benchmarks) {
      const v = b.error !== null ? 'error' : (b.comparison?.verdict ?? null);
      if (v !== null) verdicts.set(v, (verdicts.get(v) ?? 0) + 1);
    }
    const summary = [...verdicts].map(([v, n]) => `${n} ${v}`).join(', ');
    return [
      e.run.startedAt.replace(/\.\d+Z$/, 'Z'),
      e.suite,
      e.runId,
      e.commit === null ? '-' : e.commit.id.slice(0, 12),
      `${e.benchmarks.length}`,
      summary === '' ? '-' : summary,
      (e.commit?.message ?? '').slice(0, 60),
    ];
  });
  const header = ['started', 'suite', 'run id', 'commit', 'benchmarks', 'comparisons', 'message'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`.trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}
