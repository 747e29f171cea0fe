import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { readDashboard } from '../../dashboard/assets.js';
import { exportGab, importGab } from '../../history/gab-sync.js';
import { VARIABILITY_HISTORY } from '../../variability/history-hooks.js';
import type { CliContext } from '../context.js';
import { UserError } from '../errors.js';
import { addLocationOptions, locationOf, type LocationFlags } from '../history-location.js';

/** `duetkit history import-gab` and `export-gab`: github-action-benchmark's data.js. */
export function registerGabCommands(history: Command, ctx: CliContext): void {
  addLocationOptions(
    history
      .command('import-gab')
      .description(
        "Import github-action-benchmark's data.js (any of its tools) into the history; importing twice adds nothing.",
      )
      .argument('<data-js>', "github-action-benchmark's data.js (or its JSON)"),
  )
    .option(
      '--suite-from-name',
      "make each benchmark set (the action's `name` input) a suite of that name",
    )
    .option('--suite <name>', "put everything into this suite (default: the only set's name)")
    .action(
      async (file: string, flags: LocationFlags & { suiteFromName?: boolean; suite?: string }) => {
        let text: string;
        try {
          text = await readFile(path.resolve(ctx.cwd, file), 'utf8');
        } catch (error) {
          throw new UserError(`cannot read ${file}: ${(error as Error).message}`);
        }
        const result = await importGab({
          ...locationOf(flags, ctx),
          text,
          file,
          suiteFromName: flags.suiteFromName === true,
          ...(flags.suite === undefined ? {} : { suite: flags.suite }),
          dashboard: await readDashboard(),
          derivers: VARIABILITY_HISTORY.derivers,
          log: (line) => ctx.stderr(`${line}\n`),
        });
        ctx.stdout(
          `imported ${result.added} runs into ${result.suites.map((s) => JSON.stringify(s)).join(', ')}` +
            `${result.skipped > 0 ? ` (${result.skipped} already there)` : ''}` +
            `${result.commit === null ? '' : `, commit ${result.commit.slice(0, 12)}`}\n`,
        );
      },
    );

  addLocationOptions(
    history
      .command('export-gab')
      .description(
        "Write the history as github-action-benchmark's data.js, for teams that keep its dashboard.",
      ),
  )
    .requiredOption('--out <file>', 'the data.js to write')
    .option('--suite <name>', 'only this suite (default: every suite, one benchmark set each)')
    .action(async (flags: LocationFlags & { out: string; suite?: string }) => {
      const result = await exportGab({
        ...locationOf(flags, ctx),
        ...(flags.suite === undefined ? {} : { suite: flags.suite }),
      });
      for (const warning of result.warnings) ctx.stderr(`warning: ${warning}\n`);
      for (const s of result.skipped) ctx.stderr(`note: not exported, ${s}\n`);
      await writeFile(path.resolve(ctx.cwd, flags.out), result.text);
      ctx.stdout(`wrote ${result.runs} runs to ${flags.out}\n`);
    });
}
