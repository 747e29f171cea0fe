import { UserError } from '../errors.js';

/**
 * The contract between a benchmark tool's output and duetkit: each format turns what one run
 * of a tool printed (or wrote) into named benchmarks with values, a unit and a direction.
 * One file per format under `src/formats/`, one entry in `registry.ts`.
 */

/** One named metric read from one run of a tool. */
export interface ParsedBenchmark {
  /** Unique within one parse result; what reports show. */
  name: string;
  /** Unit as the tool states it (`ns/op`, `s`, `ops/s`, `B/op`...). */
  unit: string;
  /** True for throughput-like metrics where a larger value is better. */
  biggerIsBetter: boolean;
  /** Every value read, in the order the tool reported them. */
  values: number[];
  /**
   * `samples`: each value is one measurement (criterion samples, hyperfine times...).
   * `summary`: the tool reported only an aggregate (a mean, ns/op), so one run is one sample.
   */
  valueKind: 'samples' | 'summary';
  /**
   * How long the tool says it measured this benchmark in this run, ns (go: b.N × ns/op;
   * criterion: the sum of its samples' times). Absent when the tool does not say.
   */
  measuredNs?: number;
  /**
   * Set on a metric computed from another one of the same run (go's MB/s from ns/op,
   * criterion's throughput): the other's name. It is reported, but counts once in the
   * multiple-comparison family, with the metric it derives from.
   */
  derivedFrom?: string;
}

/** Where the command ran, for formats that read files the tool writes. */
export interface FormatContext {
  /** Directory the command ran in (a version's checkout). */
  cwd: string;
  /**
   * A file or directory the tool wrote, overriding where a file-reading format looks by
   * default (criterion: `<cwd>/target/criterion`). Relative paths are resolved against `cwd`.
   */
  dataPath?: string;
}

/**
 * How to run a suite's benchmarks one at a time (per-benchmark duet). Both functions take the
 * user's own argv and return a new one, so each format decides where its flags must go
 * (after cargo's `--`, as a JMH positional regex...).
 */
export interface PerBenchmarkSupport {
  /** The user's argv turned into one that lists the suite's benchmarks without running them. */
  listArgv(argv: readonly string[]): string[];
  /** Benchmark names from what the list command printed, in the names `parse` reports. */
  parseList(output: string): string[];
  /**
   * The user's argv turned into one that runs only `name` (a name from `parseList`).
   * `allNames` is the whole list, for tools whose filter matches substrings (pytest `-k`).
   */
  filterArgv(argv: readonly string[], name: string, allNames: readonly string[]): string[];
  /**
   * The user's argv turned into one that runs exactly the benchmarks `names`, in one process
   * (a suite's `granularity: group`, for tools whose start-up is costly). Absent: one at a time.
   */
  filterSetArgv?(
    argv: readonly string[],
    names: readonly string[],
    allNames: readonly string[],
  ): string[];
}

export interface BenchmarkFormat {
  /** The name used in scenarios (`format: go`), matching github-action-benchmark's `tool`. */
  readonly name: string;
  /** One line for `--help` and error messages. */
  readonly description: string;
  /**
   * `stdout`: `parse` reads only the output it is given. `files`: `parse` also reads files the
   * tool wrote under `context.cwd` (or `context.dataPath`).
   */
  readonly reads: 'stdout' | 'files';
  /**
   * Parses one run's output. Throws `FormatError` naming the format, the line or JSON path and
   * what was expected; never returns an empty list.
   */
  parse(output: string, context: FormatContext): ParsedBenchmark[];
  /** True when `output` is unambiguously this format (for `format: auto`). */
  detect?(output: string): boolean;
  /** Present when the tool can list its benchmarks and run a single one. */
  readonly perBenchmark?: PerBenchmarkSupport;
}

/** A tool's output could not be read. The message names the format, the place and the expectation. */
export class FormatError extends UserError {
  constructor(
    readonly format: string,
    readonly where: string,
    readonly expected: string,
    readonly found?: string,
  ) {
    super(
      `${format} output, ${where}: expected ${expected}` +
        (found === undefined ? '' : `, found ${JSON.stringify(truncate(found, 80))}`),
    );
    this.name = 'FormatError';
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
