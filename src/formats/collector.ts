import { FormatError, type ParsedBenchmark } from './types.js';

/**
 * Gathers values by benchmark name while a format reads a tool's output, enforcing what every
 * format promises: finite values, one unit and one direction per name, at least one benchmark.
 */
export class BenchmarkCollector {
  private readonly byName = new Map<string, ParsedBenchmark>();

  constructor(readonly format: string) {}

  /** Adds values to `name`; `where` (a line or JSON path) is quoted in any error. */
  add(
    where: string,
    name: string,
    unit: string,
    biggerIsBetter: boolean,
    values: readonly number[],
    valueKind: ParsedBenchmark['valueKind'],
    extra: { measuredNs?: number; derivedFrom?: string } = {},
  ): void {
    if (name.trim() === '') {
      throw new FormatError(this.format, where, 'a benchmark name', name);
    }
    const bad = values.find((v) => !Number.isFinite(v));
    if (bad !== undefined) {
      throw new FormatError(this.format, where, `finite numbers for "${name}"`, String(bad));
    }
    const seen = this.byName.get(name);
    if (seen === undefined) {
      this.byName.set(name, {
        name,
        unit,
        biggerIsBetter,
        values: [...values],
        valueKind,
        ...(extra.measuredNs === undefined ? {} : { measuredNs: extra.measuredNs }),
        ...(extra.derivedFrom === undefined ? {} : { derivedFrom: extra.derivedFrom }),
      });
      return;
    }
    if (extra.measuredNs !== undefined) {
      seen.measuredNs = (seen.measuredNs ?? 0) + extra.measuredNs;
    }
    if (seen.unit !== unit) {
      throw new FormatError(
        this.format,
        where,
        `unit "${seen.unit}" for "${name}" as before (mixed units cannot be compared)`,
        unit,
      );
    }
    if (seen.biggerIsBetter !== biggerIsBetter) {
      throw new FormatError(
        this.format,
        where,
        `one direction for "${name}" (biggerIsBetter ${seen.biggerIsBetter} as before)`,
      );
    }
    seen.values.push(...values);
    // a name reported several times is several samples, whatever each one summarised
    if (valueKind === 'samples') seen.valueKind = 'samples';
  }

  get size(): number {
    return this.byName.size;
  }

  /** The benchmarks read; zero benchmarks is an error, never an empty success. */
  finish(expected: string, output = ''): ParsedBenchmark[] {
    if (this.byName.size === 0) {
      throw new FormatError(
        this.format,
        'the whole output',
        `${expected} (no benchmark found)`,
        output.trim() === '' ? undefined : output.trim(),
      );
    }
    return [...this.byName.values()];
  }
}

/** Splits output into lines with their 1-based numbers, for `line N` in errors. */
export function numberedLines(output: string): { text: string; where: string }[] {
  return output.split(/\r?\n/).map((text, i) => ({ text, where: `line ${i + 1}` }));
}

/** Escapes `text` for a regular expression that must match it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
