import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkRange,
  cutWindow,
  parseProbe,
  plantable,
  plantGo,
  type ProbedCommit,
} from '../../benchmarks/bisect/real-range.js';

const root = path.join(import.meta.dirname, '..', '..');
const hash = (n: number) => n.toString(16).padEnd(40, 'a');
const line = (n: number, status: string) =>
  `${hash(n)}\tv0.0.0-2024010100000${n % 10}-${hash(n).slice(0, 12)}\t${status}\tcommit ${n}`;

describe('the pinned range of real commits (bench:bisect --range real)', () => {
  it('reads the probe newest first and returns the commits oldest first', () => {
    const commits = parseProbe(
      [line(3, 'served'), line(2, 'refused'), line(1, 'served'), ''].join('\n'),
    );
    expect(commits.map((c) => [c.subject, c.served])).toEqual([
      ['commit 1', true],
      ['commit 2', false],
      ['commit 3', true],
    ]);
  });

  it('names the line, the field and what is accepted in a bad probe', () => {
    expect(() => parseProbe(`${line(1, 'served')}\n${line(2, 'maybe')}`)).toThrow(
      'probe line 2: status "maybe"; accepted: served, refused',
    );
    expect(() => parseProbe(`${hash(1)}\tv0.0.0-20240101000000-bbbbbbbbbbbb\tserved\tx`)).toThrow(
      `probe line 1: version "v0.0.0-20240101000000-bbbbbbbbbbbb"; expected v0.0.0-<14 digits>-${hash(1).slice(0, 12)}`,
    );
    expect(() => parseProbe('abc\tv\tserved\tx')).toThrow('probe line 1: hash "abc"');
  });

  it('cuts good and the N commits after it, whose ends must be served', () => {
    const all = parseProbe(
      [5, 4, 3, 2, 1].map((n) => line(n, n === 2 || n === 5 ? 'refused' : 'served')).join('\n'),
    );
    expect(cutWindow(all, hash(1).slice(0, 10), 2).map((c) => c.subject)).toEqual([
      'commit 1',
      'commit 2',
      'commit 3',
    ]);
    expect(() => cutWindow(all, hash(1).slice(0, 10), 4)).toThrow(
      /range's end v0\.0\.0-20240101000005-\w+ is not served/,
    );
    expect(() => cutWindow(all, hash(3).slice(0, 10), 5)).toThrow(
      'only 2 probed commits after it; 5 asked for',
    );
    expect(() => cutWindow(all, 'ffffffff', 2)).toThrow('good "ffffffff": no probed commit');
    const twin = (h: string) => `${h}\tv0.0.0-20240101000000-${h.slice(0, 12)}\tserved\tx`;
    const twins = parseProbe(
      [twin(`9aaaaaab${'0'.repeat(32)}`), twin(`9aaaaaac${'0'.repeat(32)}`)].join('\n'),
    );
    expect(() => cutWindow(twins, '9aaaaaa', 1)).toThrow('more than one probed commit');
  });

  it('plants only where the commit and its parent are served (the exact commit can be named)', () => {
    const served = [true, true, true, false, true, true, true, false, true];
    const commits = served.map((s, i): ProbedCommit => ({
      hash: hash(i),
      version: '',
      served: s,
      subject: '',
    }));
    // from 2 to N-1 = 7: not 3 or 7 (not served), not 4 (its parent is not served)
    expect(plantable(commits)).toEqual([2, 5, 6]);
  });

  it('plants integer arithmetic at the top of the Go function, kept by a package variable', () => {
    const src = 'package rand\n\nfunc (r *Rand) Perm(n int) []int {\n\tm := make([]int, n)\n}\n';
    const head = 'func (r *Rand) Perm(n int) []int {';
    const plant = { head, feeds: 'n' };
    expect(plantGo(src, plant, 0, 'rand.go')).toBe(src);
    const planted = plantGo(src, plant, 1234, 'rand.go');
    expect(planted).toContain(
      `${head}\n\t{ // planted by duetkit bench:bisect\n\t\tx := duetkitPlanted`,
    );
    expect(planted).toContain('i < 1234;');
    expect(planted.indexOf('m := make')).toBeGreaterThan(planted.indexOf('duetkitPlanted = x'));
    // the function waits for the chain: its result feeds n (times a zero the compiler cannot see)
    expect(planted).toContain(
      'duetkitPlanted = x\n\t\tn += int(x & duetkitZero)\n\t}\n\tm := make',
    );
    expect(planted.endsWith('var duetkitPlanted, duetkitZero uint32\n')).toBe(true);
    expect(() => plantGo(src, { head: 'func Perm() {', feeds: 'n' }, 5, 'rand.go')).toThrow(
      'rand.go: "func Perm() {" found nowhere',
    );
    expect(() => plantGo(src + src, plant, 5, 'rand.go')).toThrow('found twice');
    expect(() => plantGo(src, plant, 1.5, 'rand.go')).toThrow(
      'rounds 1.5; expected a whole number',
    );
  });

  it("the committed range is the committed probe's window, checked, with every served zip hash pinned", () => {
    const file = 'benchmarks/bisect/golang-x-exp.json';
    const range = checkRange(JSON.parse(readFileSync(path.join(root, file), 'utf8')), file);
    const probe = parseProbe(
      readFileSync(path.join(root, 'benchmarks/bisect/golang-x-exp-probe.tsv'), 'utf8'),
    );
    const window = cutWindow(probe, range.commits[0]!.hash, range.commits.length - 1);
    expect(range.commits.map(({ sum: _, ...c }) => c)).toEqual(window);
    expect(range.commits.length - 1).toBeGreaterThanOrEqual(64);
    // what the note says: the proxy served 465 of 1141, no 64 in a row
    expect(probe.length).toBe(1141);
    expect(probe.filter((c) => c.served).length).toBe(465);
    let run = 0;
    let longest = 0;
    for (const c of probe) longest = Math.max(longest, (run = c.served ? run + 1 : 0));
    expect(longest).toBe(40);
    expect(plantable(range.commits).length).toBeGreaterThan(40);
  });

  it('refuses a pinned range with a served commit whose hash is not pinned', () => {
    const commits = [1, 2, 3].map((n) => ({
      hash: hash(n),
      version: `v0.0.0-20240101000000-${hash(n).slice(0, 12)}`,
      served: true,
      subject: '',
      sum: 'h1:i2i06Wlk8s8qzkKhK3wvmQh5Algj06pPieQg//5Pbk4=',
    }));
    const base = {
      module: 'm',
      package: './p',
      benchmark: 'B',
      made: 'x',
      plantIn: { file: 'f.go', head: 'func f() {', feeds: 'n' },
    };
    expect(checkRange({ ...base, commits }, 'r.json').commits).toHaveLength(3);
    expect(() =>
      checkRange(
        { ...base, commits: [commits[0], { ...commits[1], sum: 'md5' }, commits[2]] },
        'r.json',
      ),
    ).toThrow('r.json: commits[1].sum is "md5"; a served commit pins its zip\'s h1: hash');
    expect(() =>
      checkRange({ ...base, plantIn: { file: 'f.go', head: 'func f() {' }, commits }, 'r.json'),
    ).toThrow("expected { file, head, feeds: an int variable's name }");
    expect(() => checkRange({ ...base, benchmark: 3, commits }, 'r.json')).toThrow(
      'r.json: "benchmark" is 3; expected a string',
    );
  });
});
