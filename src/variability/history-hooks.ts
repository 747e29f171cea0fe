import type { PublishRunOptions } from '../history/publish-run.js';
import { entryWithAa } from './aa.js';
import { deriveVariability } from './derive.js';

/**
 * What the nightly variability adds to each write of the history, handed to its publish, prune
 * and import by whoever calls them (the CLI's history commands, the action's history step): the
 * history itself knows nothing of variability. An A/A run's entry gets its `aa` block (issue
 * 14, `entryWithAa`), and an edit that adds a nightly run rebuilds the suite's variability data
 * for the dashboard (`deriveVariability`).
 */
export const VARIABILITY_HISTORY = {
  amendEntry: entryWithAa,
  derivers: [deriveVariability],
} satisfies Pick<PublishRunOptions, 'amendEntry' | 'derivers'>;
