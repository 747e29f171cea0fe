import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = process.cwd();

/**
 * `npm run lint:deps` is the check of src/ itself; this checks the rules: that each forbids
 * what docs/architecture.md says and lets the rest through. tests/fixtures/layering/src breaks
 * each rule once, beside imports the rules allow.
 */
describe('the layering rules (.dependency-cruiser.js)', () => {
  it('catch each forbidden import of the fixture, type-only circles included, and no other', async () => {
    const options = await extractDepcruiseOptions(path.join(ROOT, '.dependency-cruiser.js'));
    const result = await cruise(
      ['src'],
      { ...options, baseDir: path.join(ROOT, 'tests/fixtures/layering') },
      undefined,
      { tsConfig: extractTSConfig(path.join(ROOT, 'tsconfig.json')) },
    );
    const violations = (result.output as ICruiseResult).summary.violations
      .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
      .sort();
    expect(violations).toEqual([
      'action-imported-by-no-other-room: src/cli/main.ts -> src/action/main.ts',
      'analyze-does-not-import-report: src/analyze/describe.ts -> src/report/render.ts',
      'cli-imported-by-no-other-room: src/runner/run.ts -> src/cli/main.ts',
      'contracts-import-only-scenario-and-stats: src/contracts/samples.ts -> src/runner/trial.ts',
      'history-does-not-import-variability: src/history/publish.ts -> src/variability/register.ts',
      'no-circular: src/contracts/samples.ts -> src/runner/trial.ts',
      'pipeline-only-from-entry-points: src/runner/run.ts -> src/pipeline/run.ts',
      'resolvable: src/report/render.ts -> ./missing.js',
      'stats-is-pure: src/stats/mean.ts -> src/errors.ts',
      'stats-no-node-modules: src/stats/mean.ts -> fs',
    ]);
  });

  it('run in npm run all (so in CI), over src/', () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts['lint:deps']).toBe('depcruise src --config .dependency-cruiser.js');
    expect(scripts.all).toContain('npm run lint:deps');
  });
});
