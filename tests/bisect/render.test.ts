import { alertLine, renderBisect } from '../../src/bisect/render.js';
import { BISECT_SCHEMA_VERSION, type BisectReport } from '../../src/contracts/bisect.js';
import { expectedDuets, searchRange } from '../../src/bisect/search.js';
import { MISREAD_TWO_STEPS, plantedCommits, plantedDuet, type Planted } from './planted.js';

async function reportOf(p: Planted, threshold = 0.05, budget = 20): Promise<BisectReport> {
  const commits = plantedCommits(p.commits);
  const { duet } = plantedDuet(p);
  const r = await searchRange(commits, duet, { threshold, budget });
  return {
    schemaVersion: BISECT_SCHEMA_VERSION,
    good: commits[0]!.id,
    bad: commits.at(-1)!.id,
    benchmark: 'parse',
    firstParent: true,
    threshold,
    status: r.status,
    confirmation: r.confirmation,
    commits: commits.slice(1),
    probes: r.probes,
    steps: r.steps,
    remainder: r.remainder,
    duets: r.duets,
    budget,
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
      // the planted +30%, read from 30 simulated pairs
      /\*\*Good against bad\*\*: \+(29|30|31)\.\d\d% \[.*\] \(99% CI, 30 pairs\): changed/,
    );
    expect(text).toMatch(/\| `c008000000` \| commit 8 \(#108\) \| good \| .* \| like good \|/);
    expect(text).toMatch(
      /\*\*Culprit\*\*: `c011000000` commit 11 \(#111\)\n- confirmation `c010000000` → `c011000000`: \+/,
    );
    expect(text).toMatch(
      /Duets: 6 of a budget of 20 \(log2\(N\) \+ 2 = 6\); machine time 1 min 0 s measuring, 3\.0 s building\./,
    );
  });

  it('a step found by searching again: the rest of the change, the segment and its probes', async () => {
    const text = renderBisect(await reportOf(MISREAD_TWO_STEPS, 0.01, 30));
    expect(text).toMatch(
      /\*\*Searched again\*\*: the steps first located left \+\d+\.\d\d% \[\+\d+\.\d\d%, \+\d+\.\d\d%\] of the change unexplained\.\n- `c032000000`\.\.`c064000000`: \+\d+\.\d\d% .* — a step found/,
    );
    expect(text).toMatch(/\| (good|bad) of `c032000000`\.\.`c064000000` \|/);
    expect(text).toMatch(/\*\*A step \(\d+% of the change\)\*\*: `c060000000` commit 60/);
  });

  it('says how the probes ran, and with --mode auto what each design measured', async () => {
    const report = await reportOf({ commits: 16, steps: [{ at: 11, size: 0.3 }] });
    expect(renderBisect(report)).not.toMatch(/\*\*Probes\*\*/);
    expect(renderBisect({ ...report, mode: 'duet', modeChoice: null })).toMatch(
      /\*\*Probes\*\*: duets \(both at once\)\.\n/,
    );
    const trial = (change: number, half: number, seconds: number) => ({
      change,
      lower: change - half,
      upper: change + half,
      level: 0.99,
      pairs: 30,
      seconds,
    });
    const text = renderBisect({
      ...report,
      mode: 'rmit',
      modeChoice: {
        trials: { duet: trial(0.04, 0.08, 2.3), rmit: trial(0.05, 0.01, 4.4) },
        chosen: 'rmit',
        switched: false,
      },
    });
    expect(text).toMatch(
      /\*\*Probes\*\*: RMIT rounds \(one commit at a time\), chosen \(`--mode auto`\) as the narrower interval per second of good against bad: duet \+4\.00% \[-4\.00%, \+12\.00%\] in 2\.3 s; rmit \+5\.00% \[\+4\.00%, \+6\.00%\] in 4\.4 s\./,
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
