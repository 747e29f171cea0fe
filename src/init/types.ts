import type { z } from 'zod';
import type { suiteSchema } from '../suite/schema.js';
import type { ProjectFiles } from './project.js';

/** A command as a scenario holds it: a string split like a shell would, or an argv list. */
export type CommandSpec = string | string[];

/** One step of a GitHub Actions job, as it is written into the workflow. */
export interface WorkflowStep {
  name?: string;
  uses?: string;
  with?: Record<string, string | number | boolean>;
  run?: string;
  'working-directory'?: string;
  id?: string;
  if?: string;
}

/**
 * What `duetkit init` writes for one benchmark tool: the workload and build of the scenario,
 * and the workflow steps that install the tool's toolchain on the runner. Paths are relative to
 * the project directory; the writers add the project's place in the repository.
 */
export interface ToolPlan {
  /** The detector's id (what `--tool` takes). */
  tool: string;
  /** What was found, for messages: `func Benchmark… in sums_test.go`. */
  evidence: string;
  workload: {
    command: CommandSpec;
    /** A format of src/formats; absent: the command's wall time. */
    format?: string;
    /** A file the command writes that the format reads (relative to the version's directory). */
    output?: string;
    perBenchmark?: boolean;
  };
  /**
   * A suite under one budget (docs/suites.md), for formats that run one: the `suite:` fields
   * written (`{}` takes every default) and the benchmarks found, from which the budget is sized.
   */
  suite?: SuitePlan;
  /** Build command run once per version, before measuring. */
  setup?: CommandSpec;
  /** Per-iteration time limit, as the scenario writes it (`2m`). Default the scenario's. */
  timeout?: string;
  /** Steps that install the toolchain and the dependencies, before the duetkit step. */
  steps: WorkflowStep[];
  /** Comment lines written above the workload in the scenario: why the command looks so. */
  comments: string[];
  /** Things the user should check, printed after writing. */
  notes: string[];
}

export interface SuitePlan {
  fields: z.input<typeof suiteSchema>;
  /** Benchmarks counted in the sources: an estimate (loops, parameters and filters aside). */
  benchmarks: number;
  /** How they were counted, for the scenario's comment: `func Benchmark… and b.Run calls`. */
  counted: string;
  /**
   * A command that runs every benchmark once, quickly, in the project directory, so the tool
   * itself says how many there are (sub-benchmarks made in loops and helpers included): the
   * budget is then sized from that count (`how` says so in the comment).
   */
  list?: { argv: string[]; how: string };
  /** Set when `benchmarks` is the tool's own count (from `list`), not an estimate. */
  listed?: boolean;
}

/** Finds one tool's benchmarks in a project. */
export interface Detector {
  /** What `--tool` takes, also the scenario's name. */
  readonly id: string;
  /** Other names `--tool` accepts for it. */
  readonly aliases: readonly string[];
  /** One line for messages: what the detector looks for. */
  readonly lookedFor: string;
  /** The plan for this project, or null when the tool is not in use there. */
  detect(project: ProjectFiles): Promise<ToolPlan | null>;
}
