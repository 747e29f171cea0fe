import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { readHistory } from '../../history/read.js';
import { MAX_SEED } from '../../stats/rng.js';
import { analyzeVariability } from '../../variability/analyze.js';
import { addCommits, gitCommitLister } from '../../variability/commits.js';
import { renderVariability } from '../../variability/render.js';
import type { CliContext } from '../context.js';
import { integerParser, parseLevel, parseSince, parseThreshold } from '../options.js';
import { sinceStart, type Since } from '../../scenario/values.js';

interface Flags {
  remote: string;
  branch?: string;
  path?: string;
  suite?: string;
  since?: Since;
  json?: boolean;
  out?: string;
  repo?: string;
  seed?: number;
  level?: number;
  alpha?: number;
  permutations?: number;
  threshold?: number;
}

export function registerVariability(program: Command, ctx: CliContext): void {
  program
    .command('variability')
    .description(
      'How noisy are the runners, did main drift, is there an hour or weekday pattern? Reads the history (duetkit history publish) and reports per suite and benchmark: CV within and between runs, MDE over time, A/A false positives, patterns by hour/weekday/week, error vs repetitions, infrastructure, and change points on main with their commit range.',
    )
    .requiredOption(
      '--remote <url-or-path>',
      'git remote of the history (a URL, or a local bare repository)',
    )
    .option('--branch <name>', 'branch of the history (default gh-pages)')
    .option('--path <folder>', 'folder of the history in the branch (default duetkit)')
    .option('--suite <name>', 'only this suite')
    .option(
      '--since <when>',
      'only runs since: 90d, 12w, a date (2026-01-31), or all (default)',
      parseSince,
    )
    .option('--json', 'print the report JSON instead of Markdown')
    .option('--out <file>', 'also write the Markdown report to this file')
    .option(
      '--repo <dir>',
      'git repository for the commits of each change point (default: the current one)',
    )
    .option(
      '--seed <n>',
      'seed of permutations and bootstraps (default 1)',
      integerParser(0, MAX_SEED),
    )
    .option('--level <level>', 'level of the intervals (default 95%)', parseLevel)
    .option('--alpha <p>', 'significance of the change-point tests (default 0.01)', parseAlpha)
    .option(
      '--permutations <n>',
      'permutations per change-point test (default 499)',
      integerParser(19, 100_000),
    )
    .option(
      '--threshold <t>',
      "smallest step a change point's interval must clear to be called, e.g. 5% (default 0: the interval must exclude no change)",
      parseThreshold,
    )
    .action(async (flags: Flags) => {
      const now = new Date();
      const read = await readHistory({
        remote: resolveRemote(ctx, flags.remote),
        branch: flags.branch,
        path: flags.path,
        suite: flags.suite,
        env: ctx.env,
      });
      const since = flags.since === undefined ? null : sinceStart(flags.since, now);
      const report = analyzeVariability(read.entries, {
        now,
        warnings: read.warnings,
        settings: {
          since,
          suite: flags.suite ?? null,
          ...(flags.seed === undefined ? {} : { seed: flags.seed }),
          ...(flags.level === undefined ? {} : { level: flags.level }),
          ...(flags.alpha === undefined ? {} : { changePointAlpha: flags.alpha }),
          ...(flags.permutations === undefined ? {} : { permutations: flags.permutations }),
          ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }),
        },
      });
      const notes = await addCommits(
        report,
        gitCommitLister(path.resolve(ctx.cwd, flags.repo ?? '.')),
      );
      report.warnings.push(...notes);
      const markdown = renderVariability(report);
      if (flags.out !== undefined) await writeFile(path.resolve(ctx.cwd, flags.out), markdown);
      ctx.stdout(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : markdown);
      if (read.tip === null)
        ctx.stderr(
          `note: ${flags.remote} has no history branch ${flags.branch ?? 'gh-pages'} yet\n`,
        );
    });
}

/** A local path is taken relative to the working directory; URLs are left alone. */
function resolveRemote(ctx: CliContext, remote: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/]+@[^:]+:/.test(remote)
    ? remote
    : path.resolve(ctx.cwd, remote);
}

function parseAlpha(text: string): number {
  const value = Number(text);
  if (!(value > 0 && value < 0.5))
    throw new InvalidArgumentError('Expected a significance level like 0.01 (between 0 and 0.5).');
  return value;
}
