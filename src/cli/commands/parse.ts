import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { formatNames, getFormat, detectFormat } from '../../formats/registry.js';
import type { ParsedBenchmark } from '../../formats/types.js';
import type { CliContext } from '../context.js';
import { UserError } from '../errors.js';

interface Flags {
  format: string;
  json?: boolean;
  cwd?: string;
}

export function registerParse(program: Command, ctx: CliContext): void {
  program
    .command('parse')
    .description("Read a benchmark tool's output and print the benchmarks duetkit sees in it.")
    .argument('<file>', "the tool's output, or for criterion its target/criterion directory")
    .option('--format <name>', `auto, ${formatNames().join(', ')}`, 'auto')
    .option('--cwd <dir>', 'directory the tool ran in, for formats that read its files (criterion)')
    .option('--json', 'print [{name, unit, biggerIsBetter, values}] with every value read')
    .action(async (file: string, flags: Flags) => {
      const benchmarks = await parseFile(ctx, file, flags);
      if (flags.json === true) {
        const list = benchmarks.map(({ name, unit, biggerIsBetter, values }) => ({
          name,
          unit,
          biggerIsBetter,
          values,
        }));
        ctx.stdout(`${JSON.stringify(list, null, 2)}\n`);
      } else {
        ctx.stdout(renderTable(benchmarks));
      }
    });
}

async function parseFile(ctx: CliContext, file: string, flags: Flags): Promise<ParsedBenchmark[]> {
  const absolute = path.resolve(ctx.cwd, file);
  const info = await stat(absolute).catch(() => {
    throw new UserError(`cannot read ${file}: no such file or directory`);
  });
  const cwd = path.resolve(ctx.cwd, flags.cwd ?? '.');
  if (info.isDirectory()) {
    const format = flags.format === 'auto' ? undefined : getFormat(flags.format);
    if (format?.reads !== 'files') {
      throw new UserError(
        `${file} is a directory; only formats that read the tool's files take one (--format criterion)`,
      );
    }
    return format.parse('', { cwd, dataPath: absolute });
  }
  const output = await readFile(absolute, 'utf8');
  const format = flags.format === 'auto' ? detectFormat(output) : getFormat(flags.format);
  return format.parse(output, { cwd });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function show(value: number): string {
  return Math.abs(value) >= 1e6 || (value !== 0 && Math.abs(value) < 1e-3)
    ? value.toExponential(4)
    : String(Number(value.toPrecision(6)));
}

/** A plain-text table: name, unit, direction, n, median, and whether values are raw samples. */
export function renderTable(benchmarks: readonly ParsedBenchmark[]): string {
  const rows = [
    ['name', 'unit', 'better', 'n', 'median', 'values'],
    ...benchmarks.map((b) => [
      b.name,
      b.unit === '' ? '-' : b.unit,
      b.biggerIsBetter ? 'bigger' : 'smaller',
      String(b.values.length),
      show(median(b.values)),
      b.valueKind === 'samples' ? 'raw samples' : 'summary (one per run)',
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const right = new Set([3, 4]);
  const lines = rows.map((row) =>
    row
      .map((cell, col) =>
        right.has(col) ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!),
      )
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
