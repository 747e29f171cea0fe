import { cargoDetector } from './detectors/cargo.js';
import { goDetector } from './detectors/go.js';
import { googlecppDetector } from './detectors/googlecpp.js';
import { hyperfineDetector } from './detectors/hyperfine.js';
import { jmhDetector } from './detectors/jmh.js';
import { benchmarkjsDetector, tinybenchDetector, vitestDetector } from './detectors/node.js';
import { pytestDetector } from './detectors/pytest.js';
import type { ProjectFiles } from './project.js';
import type { Detector, ToolPlan } from './types.js';

/** Every benchmark tool `duetkit init` recognises, one entry each, in the order tried. */
export const DETECTORS: readonly Detector[] = [
  goDetector,
  cargoDetector,
  pytestDetector,
  googlecppDetector,
  jmhDetector,
  vitestDetector,
  tinybenchDetector,
  benchmarkjsDetector,
  hyperfineDetector,
];

/** The id `--tool` names for a plain command (`--command`). */
export const COMMAND_TOOL = 'command';

/** Every name `--tool` accepts, ids first. */
export function toolNames(): string[] {
  return [...DETECTORS.map((d) => d.id), COMMAND_TOOL];
}

/** The detector `name` (an id or alias) means, `COMMAND_TOOL`, or null for an unknown name. */
export function findTool(name: string): Detector | typeof COMMAND_TOOL | null {
  const wanted = name.trim().toLowerCase();
  if (wanted === COMMAND_TOOL || wanted === 'plain') return COMMAND_TOOL;
  return DETECTORS.find((d) => d.id === wanted || d.aliases.includes(wanted)) ?? null;
}

/** What every detector finds in the project, in the table's order. */
export async function detectTools(
  project: ProjectFiles,
  detectors: readonly Detector[] = DETECTORS,
): Promise<ToolPlan[]> {
  const plans: ToolPlan[] = [];
  for (const detector of detectors) {
    const plan = await detector.detect(project);
    if (plan !== null) plans.push(plan);
  }
  return plans;
}
