import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from 'jest';

const ROOT = process.cwd();

interface ConfigModule {
  default: Config;
  FULL_TIER_ONLY?: Record<string, string[]>;
}
const load = async (file: string): Promise<ConfigModule> =>
  (await import(path.join(ROOT, file))) as ConfigModule;
const full = (await load('jest.config.js')).default;
const { default: unit, FULL_TIER_ONLY = {} } = await load('jest.unit.config.js');
const serial = (await load('jest.serial.config.js')).default;

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return testFiles(rel);
    return name.endsWith('.test.ts') ? [rel] : [];
  });
}

const inUnitTier = (file: string): boolean =>
  !(unit.testPathIgnorePatterns ?? []).some((p) =>
    new RegExp(p.replace('<rootDir>', ROOT)).test(path.join(ROOT, file)),
  );
const serialRegex = [serial.testRegex ?? []].flat();
const inSerialRun = (file: string): boolean =>
  serialRegex.some((r) => new RegExp(r).test(path.join(ROOT, file)));

describe('the test tiers', () => {
  const files = testFiles('tests');
  const listed = Object.values(FULL_TIER_ONLY).flat();

  it('runs every test file in the full tier: no file is in neither tier', () => {
    expect(full.testMatch).toEqual(['<rootDir>/tests/**/*.test.ts']);
    expect(full.testPathIgnorePatterns).toBeUndefined();
    const leftOut = files.filter(
      (f) => !inUnitTier(f) && !listed.some((entry) => f.startsWith(entry)),
    );
    expect(leftOut).toEqual([]);
  });

  it('leaves out of the unit tier only what FULL_TIER_ONLY lists, each entry a test file or folder', () => {
    for (const entry of listed) {
      expect([entry, files.some((f) => f.startsWith(entry))]).toEqual([entry, true]);
      if (entry.endsWith('.test.ts')) expect(existsSync(path.join(ROOT, entry))).toBe(true);
    }
    const unitFiles = files.filter(inUnitTier);
    expect(unitFiles.length).toBeGreaterThan(50);
    for (const f of unitFiles) expect(listed.some((entry) => f.startsWith(entry))).toBe(false);
    expect(unitFiles).toContain('tests/tiers.test.ts');
  });

  it('splits the full tier in two runs, the unit tier (two workers) and the rest (one), each file in exactly one', () => {
    expect(unit.maxWorkers).toBe(2);
    expect(serial.maxWorkers).toBe(1);
    expect(serial.testMatch).toBeUndefined();
    expect(serialRegex.length).toBe(listed.length);
    for (const f of files)
      expect([f, inUnitTier(f), inSerialRun(f)]).toEqual([f, inUnitTier(f), !inUnitTier(f)]);
    for (const entry of listed) {
      const matched = files.filter((f) => f.startsWith(entry));
      expect([entry, matched.length > 0 && matched.every(inSerialRun)]).toEqual([entry, true]);
    }
    // and none of the files beside the tests (helpers, programs) is run as one
    expect(inSerialRun('tests/init/helpers.ts')).toBe(false);
    expect(inSerialRun('tests/e2e/helpers.ts')).toBe(false);
  });

  it('wires npm test to the unit tier, and npm run all (so .ci/run) to both runs after the set-up', () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts.test).toMatch(/\bjest -c jest\.unit\.config\.js$/);
    expect(scripts.pretest).toBeUndefined();
    expect(scripts['test:all']).toBe('bash .ci/setup.sh && bash .ci/test-all.sh');
    const testAll = readFileSync(path.join(ROOT, '.ci/test-all.sh'), 'utf8');
    const unitAt = testAll.search(/^node_modules\/\.bin\/jest -c jest\.unit\.config\.js "\$@"$/m);
    const serialAt = testAll.search(
      /^node_modules\/\.bin\/jest -c jest\.serial\.config\.js "\$@"$/m,
    );
    expect(unitAt).toBeGreaterThan(0);
    expect(serialAt).toBeGreaterThan(unitAt);
    expect(scripts.all).toContain('npm run test:all');
    expect(readFileSync(path.join(ROOT, '.ci/run'), 'utf8')).toMatch(/^npm run all$/m);
  });
});
