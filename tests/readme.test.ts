import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_OUT } from '../src/cli/commands/run.js';
import type { ComparisonReport } from '../src/contracts/comparison.js';
import type { SamplesFile } from '../src/contracts/samples.js';
import { escapeRegExp } from '../src/formats/collector.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { runMetaOf } from '../src/report/run-meta.js';

jest.setTimeout(300_000);

const ROOT = process.cwd();

interface Block {
  line: number;
  commands: string[];
  /** The output block that follows it (`<!-- output -->`), if any. */
  output: string | null;
}

/**
 * The README's command blocks marked `<!-- runnable -->` (the line before the fence), each
 * with the output block that follows it when that one is marked `<!-- output -->`. The
 * install and test commands are not marked: `.ci/run` runs exactly those.
 */
function runnableBlocks(readme: string): Block[] {
  const lines = readme.split('\n');
  const fence = (i: number): { body: string[]; end: number } => {
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith('```')) body.push(lines[j++]!);
    return { body, end: j };
  };
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '<!-- runnable -->') continue;
    if (!lines[i + 1]?.startsWith('```sh')) {
      throw new Error(`README.md:${i + 1}: <!-- runnable --> must be followed by a \`\`\`sh block`);
    }
    const { body, end } = fence(i + 1);
    const commands = body
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    let output: string | null = null;
    let k = end + 1;
    while (k < lines.length && lines[k]!.trim() === '') k++;
    if (lines[k]?.trim() === '<!-- output -->' && lines[k + 1]?.startsWith('```')) {
      output = fence(k + 1).body.join('\n');
    }
    blocks.push({ line: i + 2, commands, output });
  }
  return blocks;
}

describe('the README', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const blocks = runnableBlocks(readme);

  it('marks its example commands runnable', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.flatMap((b) => b.commands)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^npx duetkit run scenarios\/quickstart\.yml/),
        expect.stringMatching(/^npx duetkit compare-samples /),
      ]),
    );
  });

  it('shows the set-up commands, the fast tier first, and .ci/run runs the full one', () => {
    const ci = readFileSync(path.join(ROOT, '.ci/run'), 'utf8');
    const setup = readme.match(
      /```sh\n(npm ci[^\n]*)\n(npm test[^\n]*)\n(npm run test:all[^\n]*)\n```/,
    );
    expect(setup).not.toBeNull();
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm run all\b/m);
    const all = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.all;
    expect(all).toContain('npm run test:all');
  });

  it.each(blocks.map((b) => [b.line, b] as const))(
    'the block at README.md:%i runs, and prints what the README shows',
    (_line, block) => {
      for (const command of block.commands) {
        const result = spawnSync('sh', ['-c', command], {
          cwd: ROOT,
          encoding: 'utf8',
          env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
          maxBuffer: 64 * 1024 * 1024,
        });
        if (result.status !== 0) {
          throw new Error(
            `\`${command}\` exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
          );
        }
        if (block.output !== null && command === block.commands.at(-1)) {
          // The shown output's table header and benchmark names (values differ run to run).
          const [header, ...rows] = block.output.split('\n').filter((l) => l.trim() !== '');
          for (const column of header!.trim().split(/\s{2,}/)) {
            expect(result.stdout).toContain(column);
          }
          // A benchmark's row by its name; under it, its explanation ("↳ where the time
          // went", indented): the profiler's line, the first function listed by name and
          // kind, and the flame graph (the other functions listed vary from run to run).
          const explained = rows.filter((row) => /^\s/.test(row));
          for (const row of rows.filter((row) => !/^\s/.test(row))) {
            const name = row.trim().split(/\s+/)[0]!;
            expect(result.stdout).toMatch(new RegExp(`^\\s*${name}\\s`, 'm'));
          }
          const [how, first] = explained;
          if (how !== undefined) {
            expect(how).toMatch(/^\s+↳ where the time went \((\w+), /);
            expect(result.stdout).toContain(how.slice(0, how.indexOf(',')));
            const fn = /^\s+(.+? (?:self|total)) [+−]/.exec(first ?? '')?.[1];
            expect(fn).toBeDefined();
            expect(result.stdout).toMatch(new RegExp(`^\\s+${escapeRegExp(fn!)} [+−]`, 'm'));
            expect(result.stdout).toMatch(/^\s+flame graph: profiles\/\S+\/diff\.html$/m);
          }
        }
      }
      if (block.commands.some((c) => c.includes('scenarios/quickstart.yml'))) quickstartExplained();
    },
  );
});

/**
 * The quickstart's PR comment names the function where `checksum`'s 6% went (issue 23):
 * checksum is a regression, its profile ran checksum alone (the scenario's benchmarkCommand),
 * so the differential's time ratio is checksum's own measured one, and the first function the
 * comment lists under it is `checksum (bench.js)`'s own code, with a contribution above 0.
 */
function quickstartExplained(): void {
  const dir = path.join(ROOT, DEFAULT_OUT);
  const report = JSON.parse(
    readFileSync(path.join(dir, 'comparison.json'), 'utf8'),
  ) as ComparisonReport;
  const samples = JSON.parse(readFileSync(path.join(dir, 'samples.json'), 'utf8')) as SamplesFile;
  const checksum = report.results.find((r) => r.benchmark === 'checksum')!;
  expect(checksum.comparison?.verdict).toBe('regression');
  expect(checksum.explain).toEqual(
    expect.objectContaining({ profiler: 'node', timeRatioSource: 'measured' }),
  );
  const comment = renderMarkdown(report, runMetaOf(samples, 'quickstart'));
  expect(comment).toMatch(
    /^- \*\*checksum\*\* \(node, \d+ base \/ \d+ head samples, [\d.]+ s profiling\): `checksum \(bench\.js\)` self \+\d+\.\d% of base time \[\+/m,
  );
}
