import { alertLine, renderBisect } from '../../src/bisect/render.js';
import { BISECT_SCHEMA_VERSION, type BisectReport } from '../../src/contracts/bisect.js';
import { expectedDuets, searchRange } from '../../src/bisect/search.js';
import { plantedCommits, plantedDuet, type Planted } from './planted.js';

async function reportOf(p: Planted): Promise<BisectReport> {
  const commits = plantedCommits(p.commits);
  const { duet } = plantedDuet(p);
  const r = await searchRange(commits, duet, { threshold: 0.05, budget: 20 });
  return {
    schemaVersion: BISECT_SCHEMA_VERSION,
    good: commits[0]!.id,
    bad: commits.at(-1)!.id,
    benchmark: 'parse',
    firstParent: true,
    threshold: 0.05,
    status: r.status,
    confirmation: r.confirmation,
    commits: commits.slice(1),
    probes: r.probes,
    steps: r.steps,
    duets: r.duets,
    budget: 20,
    expectedDuets: expectedDuets(p.commits),
    measureSeconds: r.measureSeconds,
    buildSeconds: 3,
    notes: r.notes,
  };
}

const url = (id: string) => `https://github.com/acme/app/commit/${id}`;

describe('bisect reports', () => {
  it('the text names the culprit with its pull request, every probe and the cost', async () => {
    const text = renderBisect(await reportOf({ commits: 16, steps: [{ at: 11, size: 0.3 }] }));
    expect(text).toMatch(/^## duetkit bisect: `c000000000`\.\.`c016000000`/);
    expect(text).toMatch(
      /\*\*Good against bad\*\*: \+30\.\d\d% \[.*\] \(99% CI, 30 pairs\): changed/,
    );
    expect(text).toMatch(/\| `c008000000` \| commit 8 \(#108\) \| good \| .* \| like good \|/);
    expect(text).toMatch(
      /\*\*Culprit\*\*: `c011000000` commit 11 \(#111\)\n- confirmation `c010000000` → `c011000000`: \+/,
    );
    expect(text).toMatch(
      /Duets: 6 of a budget of 20 \(log2\(N\) \+ 2 = 6\); machine time 1 min 0 s measuring, 3\.0 s building\./,
    );
  });

  it('the alert line links the culprit and gives the confirmation’s interval', async () => {
    const line = alertLine(await reportOf({ commits: 16, steps: [{ at: 11, size: 0.3 }] }), url);
    expect(line).toMatch(
      /^bisect \(6 duets\): culprit \[`c011000000`\]\(https:\/\/github\.com\/acme\/app\/commit\/c011000000{31}\) commit 11 \(#111\); confirmation `c010000000` → `c011000000`: \+\d\d\.\d\d% \[\+\d\d\.\d\d%, \+\d\d\.\d\d%\] \(99% CI, 30 pairs\)$/,
    );
  });

  it('an A/A range: the alert line says nothing was bisected, and names no commit', async () => {
    const line = alertLine(await reportOf({ commits: 16, steps: [] }), url);
    expect(line).toMatch(/no change beyond the threshold on this machine, nothing bisected$/);
    expect(line).not.toMatch(/culprit/);
  });
});
