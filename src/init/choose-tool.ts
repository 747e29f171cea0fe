import { UserError } from '../errors.js';
import { formatNames } from '../formats/registry.js';
import { commandPlan, commandSpec } from './detectors/command.js';
import type { ProjectFiles } from './project.js';
import type { Prompter } from './prompt.js';
import { COMMAND_TOOL, DETECTORS, detectTools, findTool, toolNames } from './tools.js';
import type { ToolPlan } from './types.js';

export interface ToolChoice {
  /** `--tool`: a detector's id or alias, or `command`. */
  tool?: string;
  /** `--command`: alone, a plain command; with `--tool`, replaces the tool's command. */
  command?: string;
  /** `--setup`: replaces the build command. */
  setup?: string;
  /** `--format`: replaces the workload's format. */
  format?: string;
}

/** The plan chosen, and every other tool that was found (for the summary). */
export interface ChosenTool {
  plan: ToolPlan;
  others: ToolPlan[];
}

/**
 * Decides what to benchmark: the tool named by `--tool`, else a plain `--command`, else what
 * the detectors find. Several tools found, or none: on a terminal (`prompter`) the user is
 * asked; otherwise a `UserError` (exit 2) says what was found or looked for, and which option
 * to pass.
 */
export async function chooseTool(
  project: ProjectFiles,
  choice: ToolChoice,
  prompter: Prompter | null,
): Promise<ChosenTool> {
  if (
    choice.format !== undefined &&
    choice.format !== 'auto' &&
    !formatNames().includes(choice.format)
  ) {
    throw new UserError(
      `--format: got "${choice.format}"; expected one of: auto, ${formatNames().join(', ')}`,
    );
  }
  const chosen = await pick(project, choice, prompter);
  return { plan: withOverrides(chosen.plan, choice), others: chosen.others };
}

async function pick(
  project: ProjectFiles,
  choice: ToolChoice,
  prompter: Prompter | null,
): Promise<ChosenTool> {
  if (choice.tool !== undefined) {
    const detector = findTool(choice.tool);
    if (detector === null) {
      throw new UserError(
        `--tool: got "${choice.tool}"; expected one of: ${toolNames().join(', ')}`,
      );
    }
    if (detector === COMMAND_TOOL) {
      if (choice.command === undefined) {
        throw new UserError('--tool command needs the command to measure: --command "CMD"');
      }
      return { plan: plainPlan(choice.command, choice.format), others: [] };
    }
    const plan = await detector.detect(project);
    if (plan === null) {
      throw new UserError(
        `--tool ${detector.id}: found no ${detector.id} benchmarks in ${project.root}; looked for ${detector.lookedFor}`,
      );
    }
    return { plan, others: [] };
  }
  if (choice.command !== undefined) {
    return { plan: plainPlan(choice.command, choice.format), others: [] };
  }
  const found = await detectTools(project);
  if (found.length === 1) return { plan: found[0]!, others: [] };
  if (found.length > 1) {
    if (prompter === null) {
      throw new UserError(
        `found several benchmark tools in ${project.root}:\n${found
          .map((p) => `  - ${p.tool}: ${p.evidence}`)
          .join('\n')}\nchoose one with ${found.map((p) => `--tool ${p.tool}`).join(' or ')}`,
      );
    }
    const index = await prompter.choose(
      `Several benchmark tools were found in ${project.root}. Which one should duetkit compare?`,
      found.map((p) => `${p.tool}: ${p.evidence}`),
    );
    return { plan: found[index]!, others: found.filter((_, i) => i !== index) };
  }
  if (prompter !== null) {
    const line = await prompter.ask(
      `No benchmark tool found in ${project.root}.\nCommand to benchmark (its wall time is compared; empty to stop): `,
    );
    if (line !== '') return { plan: plainPlan(line, choice.format), others: [] };
  }
  throw new UserError(nothingFound(project.root));
}

/** The message when no detector matched: what was looked for and how to go on. */
export function nothingFound(root: string): string {
  return [
    `found no benchmarks in ${root}; looked for:`,
    ...DETECTORS.map((d) => `  - ${d.lookedFor}`),
    'name the command to measure with --command "CMD" (its wall time is compared; add --format NAME',
    'if it prints the output of a tool of docs/formats.md), or pick a tool with --tool NAME',
  ].join('\n');
}

function withOverrides(plan: ToolPlan, choice: ToolChoice): ToolPlan {
  const workload = { ...plan.workload };
  if (plan.tool !== COMMAND_TOOL && choice.command !== undefined) {
    workload.command = parsed('--command', choice.command);
  }
  if (choice.format !== undefined) workload.format = choice.format;
  return {
    ...plan,
    workload,
    ...(choice.setup === undefined ? {} : { setup: parsed('--setup', choice.setup) }),
  };
}

function plainPlan(line: string, format: string | undefined): ToolPlan {
  try {
    return commandPlan(line, format);
  } catch (error) {
    throw new UserError(`--command: got ${JSON.stringify(line)}; ${(error as Error).message}`);
  }
}

function parsed(option: string, line: string): ToolPlan['workload']['command'] {
  try {
    return commandSpec(line);
  } catch (error) {
    throw new UserError(`${option}: got ${JSON.stringify(line)}; ${(error as Error).message}`);
  }
}
