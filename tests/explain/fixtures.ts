import { readFileSync } from 'node:fs';
import type { ComparisonReport } from '../../src/contracts/comparison.js';
import type { ProfilesFile } from '../../src/contracts/profile.js';
import { attachExplanations } from '../../src/explain/attach.js';
import { sampleReport } from '../report/fixtures.js';

/** tests/fixtures/explain/profiles.json (make-profiles.ts): perf-shaped profiles of the report fixture. */
export function sampleProfiles(): ProfilesFile {
  return JSON.parse(
    readFileSync(new URL('../fixtures/explain/profiles.json', import.meta.url), 'utf8'),
  ) as ProfilesFile;
}

/** The report fixture with the fixture profiles attached. */
export function explainedReport(): ComparisonReport {
  return attachExplanations(sampleReport(), sampleProfiles());
}
