import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../support/bundle-action.js';

const SCRIPT = path.join(ROOT, 'scripts/readme-inputs.mjs');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });

describe('scripts/readme-inputs.mjs', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-readme-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('README.md and docs/action.md hold the current tables', () => {
    const result = run('--check', 'docs/action.md', 'README.md');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fills a document between the markers with every input and output of action.yml', () => {
    const readme = path.join(dir, 'README.md');
    writeFileSync(
      readme,
      '# x\n\n<!-- inputs:start -->\nSTALE TABLE\n<!-- inputs:end -->\n\nafter\n',
    );
    expect(run('--check', readme).status).toBe(1);
    expect(run('--check', readme).stderr).toContain(`stale action inputs table in ${readme}`);
    execFileSync(process.execPath, [SCRIPT, readme], { cwd: ROOT });
    const text = readFileSync(readme, 'utf8');
    const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8'));
    for (const name of Object.keys(action.inputs)) expect(text).toContain(`| \`${name}\` |`);
    for (const name of Object.keys(action.outputs)) expect(text).toContain(`| \`${name}\` |`);
    expect(text).toContain('| `fail-on` | `regression` | When the step fails');
    expect(text).toContain('| `github-token` | `${{ github.token }}` |');
    expect(text).not.toContain('STALE TABLE');
    expect(text.endsWith('<!-- inputs:end -->\n\nafter\n')).toBe(true);
    expect(run('--check', readme).status).toBe(0);
  });

  it('refuses a document without the markers', () => {
    const bare = path.join(dir, 'bare.md');
    writeFileSync(bare, '# nothing here\n');
    const result = run(bare);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'has no "<!-- inputs:start -->" ... "<!-- inputs:end -->" section',
    );
  });
});
