import type { Scenario } from '../scenario/schema.js';
import { cargoSuite } from './prepare-cargo.js';
import { goSuite } from './prepare-go.js';
import { listedSuite } from './prepare-listed.js';
import type { SuitePreparer } from './preparer.js';

/** Formats whose benchmark program a suite builds once (`suite.build: auto`). */
const BUILT: Record<string, SuitePreparer> = {
  go: goSuite,
  criterion: cargoSuite,
  cargo: cargoSuite,
};

/**
 * The preparation of a scenario's suite: its format's own (build once, calibrate) under
 * `suite.build: auto` when it has one, else the command as written, listed and filtered.
 */
export function preparerFor(scenario: Scenario): SuitePreparer {
  const built = BUILT[scenario.workload.format ?? ''];
  return scenario.suite!.build === 'auto' && built !== undefined ? built : listedSuite;
}
