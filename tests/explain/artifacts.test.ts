import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeExplainArtifacts } from '../../src/explain/artifacts.js';
import { explainedReport, sampleProfiles } from './fixtures.js';

describe('writeExplainArtifacts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'duetkit-explain-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the flame graph and a speedscope file per side where the explain blocks say', async () => {
    const report = explainedReport();
    const written = await writeExplainArtifacts(dir, report, sampleProfiles());
    const parse = report.results.find((r) => r.benchmark === 'parse')!.explain!;
    expect(written).toEqual(
      expect.arrayContaining([parse.files.flameGraph, ...parse.files.raw.slice(2)]),
    );
    // the side without a profile gets no flame graph
    expect((await readdir(path.join(dir, 'profiles'))).sort()).toEqual([
      'parse',
      expect.stringMatching(/^serialize__octocat__b____b_-[0-9a-f]{8}$/),
    ]);
    const html = await readFile(path.join(dir, parse.files.flameGraph!), 'utf8');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain('>parse_line</text>');
    expect(html).toMatch(/<td><code>parse_line<\/code><\/td><td>self<\/td>/);
  });

  it('writes speedscope files with every sample of the side, weighted in seconds', async () => {
    const base = sampleProfiles().pairs[0]!.base!;
    const json = JSON.parse(
      await readFile(path.join(dir, 'profiles/parse/base.speedscope.json'), 'utf8'),
    ) as {
      $schema: string;
      shared: { frames: { name: string }[] };
      profiles: {
        type: string;
        unit: string;
        samples: number[][];
        weights: number[];
        endValue: number;
      }[];
    };
    expect(json.$schema).toBe('https://www.speedscope.app/file-format-schema.json');
    const profile = json.profiles[0]!;
    expect(profile).toMatchObject({ type: 'sampled', unit: 'seconds' });
    expect(profile.samples).toHaveLength(profile.weights.length);
    const samples = base.chunks.flatMap((c) => c.stacks).reduce((n, s) => n + s.count, 0);
    expect(profile.endValue).toBeCloseTo(samples * base.period!, 9);
    const first = base.chunks[0]!.stacks[0]!;
    expect(profile.samples[0]!.map((i) => json.shared.frames[i]!.name)).toEqual(first.frames);
  });

  it('escapes what the profiled program named', async () => {
    const report = explainedReport();
    const profiles = sampleProfiles();
    const head = profiles.pairs[1]!.head!;
    head.chunks[0]!.stacks[0]!.frames = ['<script>alert(1)</script>', '&amp'];
    head.chunks[0]!.stacks[0]!.count = 5000;
    await writeExplainArtifacts(dir, report, profiles);
    const target = report.results.find((r) => r.benchmark.startsWith('serialize'))!.explain!;
    const html = await readFile(path.join(dir, target.files.flameGraph!), 'utf8');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('<h1>serialize @octocat &#60;b&#62;|&#60;/b&#62;</h1>');
  });
});
