import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { statusOf } from '../../analyze/report.js';
import type { ComparisonReport } from '../../contracts/comparison.js';
import {
  toGab,
  type GabExport,
  type NamedComparison,
  type NamedNotComparable,
} from '../../formats/gab.js';
import type { Comparison } from '../../stats/types.js';
import type { CliContext } from '../context.js';
import { UserError } from '../errors.js';
import { choiceParser } from '../options.js';

const FORMATS = ['gab', 'customSmallerIsBetter', 'customBiggerIsBetter'] as const;
type ExportFormat = (typeof FORMATS)[number];

interface Flags {
  format: ExportFormat;
  out?: string;
  name?: string;
}

export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description(
      "Write a comparison as github-action-benchmark's custom JSON, for teams that keep that action's history and dashboard.",
    )
    .argument('<comparison>', 'comparison.json (duetkit run/analyze), or compare-samples --json')
    .requiredOption(
      '--format <name>',
      `${FORMATS.join('|')}; gab picks the direction the benchmarks have (one per file)`,
      choiceParser(FORMATS),
    )
    .option('--out <file>', 'write the JSON here instead of stdout')
    .option('--name <name>', 'benchmark name for a single comparison (compare-samples)')
    .action(async (file: string, flags: Flags) => {
      const { comparisons, errors, notes } = readComparisons(
        await readJson(ctx, file),
        file,
        flags,
      );
      for (const e of errors) ctx.stderr(`error: ${e}: not exported, it has no comparison\n`);
      for (const note of notes) ctx.stderr(`note: ${note}\n`);
      const entries = pick(toGab(comparisons), flags.format, file);
      const text = `${JSON.stringify(entries, null, 2)}\n`;
      if (flags.out === undefined) ctx.stdout(text);
      else await writeFile(path.resolve(ctx.cwd, flags.out), text);
      // A benchmark that could not be compared must not vanish from the history unnoticed.
      if (errors.length > 0) ctx.exitCode = 1;
    });
}

async function readJson(ctx: CliContext, file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path.resolve(ctx.cwd, file), 'utf8'));
  } catch (error) {
    throw new UserError(`cannot read comparison ${file}: ${(error as Error).message}`);
  }
}

/**
 * A run's report (every benchmark × version) or one `Comparison` from compare-samples. A
 * benchmark that is not comparable is exported with its head value (and a note); one that
 * is an error cannot be.
 */
function readComparisons(
  data: unknown,
  file: string,
  flags: Flags,
): {
  comparisons: (NamedComparison | NamedNotComparable)[];
  errors: string[];
  notes: string[];
} {
  const report = data as Partial<ComparisonReport> | null;
  if (Array.isArray(report?.results)) {
    const versions = new Set(report.results.map((r) => r.version));
    const named = (benchmark: string, version: string): string =>
      versions.size > 1 ? `${benchmark} (${version})` : benchmark;
    const out = {
      comparisons: [] as (NamedComparison | NamedNotComparable)[],
      errors: [] as string[],
      notes: [] as string[],
    };
    for (const r of report.results) {
      const name = named(r.benchmark, r.version);
      if (r.comparison !== null) {
        out.comparisons.push({ name, unit: r.unit, comparison: r.comparison });
      } else if (statusOf(r) === 'not-comparable') {
        const n = r.notComparable!;
        out.comparisons.push({
          name,
          unit: r.unit,
          notComparable: n,
          biggerIsBetter: r.biggerIsBetter,
        });
        out.notes.push(`${name}: not comparable (${n.reason}); exported with its head value`);
      } else if (statusOf(r) === 'unmeasured') {
        // the budget ran out before it: no value to export, and not a failure
        out.notes.push(`${name}: not measured (${r.unmeasured}); not exported`);
      } else {
        out.errors.push(`${name}: ${r.error}`);
      }
    }
    return out;
  }
  const single = data as Partial<Comparison> | null;
  if (typeof single?.verdict === 'string' && single.ci !== undefined) {
    const name = flags.name ?? path.basename(file, '.json');
    return {
      comparisons: [{ name, unit: '', comparison: single as Comparison }],
      errors: [],
      notes: [],
    };
  }
  throw new UserError(
    `${file}: not a comparison; expected comparison.json from duetkit run/analyze (with "results") or the JSON of duetkit compare-samples --json`,
  );
}

function pick(gab: GabExport, format: ExportFormat, file: string): GabExport[keyof GabExport] {
  if (format !== 'gab') return gab[format];
  const smaller = gab.customSmallerIsBetter.length;
  const bigger = gab.customBiggerIsBetter.length;
  if (smaller > 0 && bigger > 0) {
    throw new UserError(
      `${file} has benchmarks in both directions (${smaller} smaller is better, ${bigger} bigger is better), and github-action-benchmark reads one direction per file: export each with --format customSmallerIsBetter and --format customBiggerIsBetter`,
    );
  }
  return bigger > 0 ? gab.customBiggerIsBetter : gab.customSmallerIsBetter;
}
