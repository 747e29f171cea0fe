import { z } from 'zod';
import { InputError } from '../src/action/input-error.js';
import { ClusterError } from '../src/cluster/types.js';
import { isUserFacing, UserError } from '../src/errors.js';
import { FormatError } from '../src/formats/types.js';
import { PermissionError } from '../src/github/api.js';
import { GitError } from '../src/git/git.js';
import { GitStoreError } from '../src/history/git-branch.js';
import { PublishError } from '../src/history/push-loop.js';
import { HistoryFormatError } from '../src/history/schema.js';
import { IsolationError } from '../src/isolation/choose.js';
import { RunError } from '../src/process/errors.js';
import { ScenarioError } from '../src/scenario/load.js';
import { NotComparableError } from '../src/stats/ratio.js';
import type { NotComparable } from '../src/stats/types.js';

describe('isUserFacing', () => {
  const userFacing: [string, Error][] = [
    ['UserError', new UserError('m')],
    ['InputError', new InputError('threshold', 'm')],
    ['ScenarioError', new ScenarioError('m')],
    ['FormatError', new FormatError('go', 'line 1', 'a number')],
    ['HistoryFormatError', new HistoryFormatError('a.json', 'runs', 'm')],
    ['RunError', new RunError('m')],
    ['GitError', new GitError('m')],
    ['GitStoreError', new GitStoreError('m')],
    ['PublishError', new PublishError('m', 'denied')],
    ['IsolationError', new IsolationError('m')],
    ['ClusterError', new ClusterError('m')],
    ['RangeError', new RangeError('m')],
    [
      'NotComparableError',
      new NotComparableError({ reason: 'base values are all 0' } as NotComparable),
    ],
    ['ZodError', z.number().safeParse('x').error!],
  ];
  it.each(userFacing)('takes a %s as the user’s to fix', (_, error) => {
    expect(isUserFacing(error)).toBe(true);
  });

  it('goes by class, not by name', () => {
    const named = Object.assign(new Error('m'), { name: 'RunError' });
    expect(isUserFacing(named)).toBe(false);
    expect(isUserFacing(new Error('m'))).toBe(false);
    expect(isUserFacing(new TypeError('m'))).toBe(false);
    expect(isUserFacing(new PermissionError('m', 403))).toBe(false);
    expect(isUserFacing('m')).toBe(false);
  });

  it('has one root for what the user must fix, keeping the names that are printed', () => {
    for (const [, error] of userFacing.slice(0, 11)) expect(error).toBeInstanceOf(UserError);
    expect(new GitError('m').name).toBe('RunError');
    expect(new IsolationError('m').name).toBe('RunError');
    expect(new ScenarioError('m').name).toBe('ScenarioError');
    expect(new FormatError('go', 'x', 'y').name).toBe('FormatError');
    expect(new RunError('m').exitCode).toBe(2);
  });
});
