import path from 'node:path';
import { fileURLToPath } from 'node:url';
import full from './jest.config.js';
import { FULL_TIER_ONLY } from './jest.unit.config.js';

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The second half of `npm run test:all`: the files the unit tier leaves out (FULL_TIER_ONLY:
 * real tools, timing, root, long runs), one at a time (one worker), after the unit tier has
 * run on both cores. Nothing here runs beside another test: the duets, timers and calibrations
 * measure, and would measure the other test too. Together the two runs are exactly the full
 * tier (jest.config.js, which runs everything in one go with one worker on a 2-core machine);
 * tests/tiers.test.ts checks that. Each FULL_TIER_ONLY entry is a file or a prefix of paths
 * (a folder, or the start of file names), as in the unit tier's testPathIgnorePatterns.
 */
/** @type {import('jest').Config} */
export default {
  ...full,
  maxWorkers: 1,
  testMatch: undefined,
  testRegex: Object.values(FULL_TIER_ONLY)
    .flat()
    .map(
      (p) => `^${escape(path.join(root, p))}${p.endsWith('.test.ts') ? '$' : '.*\\.test\\.ts$'}`,
    ),
};
