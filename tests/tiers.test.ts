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

  it('wires npm test to the unit tier, and npm run all (so .ci/run) to the full one after the set-up', () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts.test).toMatch(/\bjest -c jest\.unit\.config\.js$/);
    expect(scripts.pretest).toBeUndefined();
    expect(scripts['test:all']).toMatch(/^bash \.ci\/setup\.sh && .*\bjest -c jest\.config\.js$/);
    expect(scripts.all).toContain('npm run test:all');
    expect(readFileSync(path.join(ROOT, '.ci/run'), 'utf8')).toMatch(/^npm run all$/m);
  });
});
