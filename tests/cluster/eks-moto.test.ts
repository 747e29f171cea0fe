import { jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DescribeLaunchTemplateVersionsCommand } from '@aws-sdk/client-ec2';
import { CreateClusterCommand, DescribeClusterCommand } from '@aws-sdk/client-eks';
import { cleanUpState } from '../../src/cluster/cleanup.js';
import { eksProvider, TAGS } from '../../src/cluster/eks.js';
import { clusterSchema } from '../../src/cluster/schema.js';
import { createStateRecorder, isEmpty, type ClusterState } from '../../src/cluster/state.js';
import type { AcquiredCluster } from '../../src/cluster/types.js';
import { main } from '../../src/cli/main.js';
import type { CliContext } from '../../src/cli/context.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { startMoto, type Moto } from '../support/moto.js';
import {
  duetkitLeftovers,
  eksEnv,
  eksSpec,
  killCase,
  motoClients,
  ROLES,
} from '../support/eks-harness.js';

/**
 * The EKS lifecycle against moto (a real AWS API stand-in on 127.0.0.1), with a fault-injecting
 * proxy in front of it for slow phases and failures moto does not have. The proof everywhere:
 * no duetkit cluster is left in the account. The full fault and kill matrix is
 * `npm run bench:cluster-faults` (BENCHMARKS.md, "Cluster runs").
 */
jest.setTimeout(60_000);

let moto: Moto;
let proxy: FaultProxy;
let dir: string;

beforeAll(async () => {
  moto = await startMoto();
  proxy = await startFaultProxy(moto.url);
  dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-eks-test-'));
});
afterAll(async () => {
  await proxy?.close();
  await moto?.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => proxy.reset());
afterEach(async () => {
  // Every case ends with nothing of duetkit's in the account.
  expect(await duetkitLeftovers(motoClients(moto.url))).toEqual({ clusters: [], templates: [] });
});

let runs = 0;
async function acquire(
  extra: Record<string, unknown> = {},
  cluster: Record<string, unknown> = {},
  options: { expiresAt?: Date; runId?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{
  acquired: AcquiredCluster | null;
  error: string | null;
  state: ClusterState;
  log: string[];
}> {
  const runId = options.runId ?? `t${++runs}`;
  const spec = clusterSchema.parse({ ...eksSpec(proxy.url, extra), ...cluster });
  const log: string[] = [];
  let saved: ClusterState = { schemaVersion: 1, runId, provider: 'eks' };
  const state = createStateRecorder(saved, (s) => void (saved = s));
  try {
    const acquired = await eksProvider.acquire({
      spec,
      runId,
      baseDir: dir,
      env: eksEnv(options.env),
      signal: new AbortController().signal,
      state,
      log: (line) => log.push(line),
      repository: 'octo/bench',
      expiresAt: options.expiresAt ?? new Date(Date.now() + 3600_000),
      cpus: spec.cpus ?? 1,
    });
    return { acquired, error: null, state: saved, log };
  } catch (error) {
    return { acquired: null, error: (error as Error).message, state: saved, log };
  }
}

it('create → wait through slow phases → describe → kubeconfig → delete, everything tagged', async () => {
  proxy.slowPhases = { cluster: 3, nodegroup: 2 };
  const { acquired, error, log, state } = await acquire();
  expect(error).toBeNull();
  expect(log).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^cluster duetkit-t\d+: CREATING/),
      expect.stringMatching(/^cluster duetkit-t\d+: ACTIVE/),
      expect.stringMatching(/^node group duetkit-t\d+-nodes: CREATING/),
      expect.stringMatching(/^node group duetkit-t\d+-nodes: ACTIVE/),
    ]),
  );
  expect(state.eks).toMatchObject({
    cluster: acquired!.name,
    nodegroup: `${acquired!.name}-nodes`,
  });
  const clients = motoClients(moto.url);
  const described = await clients.eks.send(new DescribeClusterCommand({ name: acquired!.name }));
  expect(described.cluster?.tags).toMatchObject({
    [TAGS.runId]: state.runId,
    [TAGS.repository]: 'octo/bench',
    [TAGS.expiresAt]: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  expect(acquired!.kubeConfig.getCurrentCluster()?.server).toBe(described.cluster?.endpoint);
  expect(acquired!.kubeConfig.getCurrentUser()?.authProvider?.name).toBe('duetkit-eks');
  // The launch template carries the static CPU manager for nodeadm.
  const versions = await clients.ec2.send(
    new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: acquired!.name }),
  );
  const userData = Buffer.from(
    versions.LaunchTemplateVersions![0]!.LaunchTemplateData!.UserData!,
    'base64',
  ).toString();
  expect(userData).toContain('Content-Type: application/node.eks.aws');
  expect(userData).toMatch(/cpuManagerPolicy: static\n\s+reservedSystemCPUs: "0"/);

  proxy.calls.length = 0;
  await acquired!.release();
  // Node group first, waited for through DELETING, then the cluster, then the template.
  const order = proxy.calls.filter((c) => c.startsWith('Delete'));
  expect(order).toEqual(['DeleteNodegroup', 'DeleteCluster', 'DeleteLaunchTemplate']);
  expect(proxy.calls.filter((c) => c === 'DescribeNodegroup').length).toBeGreaterThanOrEqual(3);
});

it('reap deletes expired duetkit clusters only (node groups first); --dry-run deletes nothing', async () => {
  const expired = await acquire({}, {}, { expiresAt: new Date(Date.now() - 1000) });
  const live = await acquire();
  const clients = motoClients(moto.url);
  await clients.eks.send(
    new CreateClusterCommand({
      name: 'someone-elses',
      roleArn: ROLES.clusterRole,
      resourcesVpcConfig: {},
    }),
  );
  const out: string[] = [];
  const ctx: CliContext = {
    stdout: (t) => out.push(t),
    stderr: () => undefined,
    cwd: dir,
    env: eksEnv(),
    isTTY: false,
    exitCode: 0,
  };
  const args = [
    'cluster',
    'reap',
    '--region',
    'us-east-1',
    '--endpoint',
    moto.url,
    '--ec2-endpoint',
    moto.url,
  ];
  expect(await main([...args, '--dry-run'], ctx)).toBe(0);
  expect(out.join('')).toMatch(new RegExp(`would delete\\s+cluster\\s+${expired.acquired!.name} `));
  expect(out.join('')).toMatch(new RegExp(`kept\\s+cluster\\s+${live.acquired!.name} `));
  expect(out.join('')).not.toContain('someone-elses');
  expect((await duetkitLeftovers(clients)).clusters).toHaveLength(2);

  out.length = 0;
  expect(await main(args, ctx)).toBe(0);
  expect(out.join('')).toMatch(new RegExp(`deleted\\s+cluster\\s+${expired.acquired!.name} `));
  expect((await duetkitLeftovers(clients)).clusters).toEqual([live.acquired!.name]);
  expect(
    (await clients.eks.send(new DescribeClusterCommand({ name: 'someone-elses' }))).cluster,
  ).toBeDefined();
  await live.acquired!.release();
  await clients.eks.send(
    new (await import('@aws-sdk/client-eks')).DeleteClusterCommand({ name: 'someone-elses' }),
  );
});

describe('bad input: a clear error naming the field or the AWS error, and nothing left behind', () => {
  it('an unknown instance type, before anything is created', async () => {
    const { error } = await acquire({ instanceType: 'm5.huge' });
    expect(error).toMatch(
      /^cluster\.eks\.instanceType "m5\.huge": InvalidInstanceType .*do not exist/,
    );
    expect(proxy.calls).not.toContain('CreateCluster');
  });

  it('an instance type too small for the pod', async () => {
    const { error } = await acquire({}, { cpus: 3 });
    expect(error).toMatch(
      /cluster\.eks\.instanceType "m5\.large" has 2 vCPUs: the benchmark pod asks for 3 whole CPUs/,
    );
  });

  it.each([
    [
      'CreateCluster',
      'InvalidParameterException',
      400,
      /CreateCluster \(cluster\.eks\.clusterRole, .*\): InvalidParameterException \(HTTP 400\): Role .* not found/,
      'Role arn:aws:iam::123456789012:role/duetkit-cluster not found',
    ],
    [
      'CreateCluster',
      'AccessDeniedException',
      403,
      /AccessDeniedException \(HTTP 403\).*lacks a permission duetkit needs/,
      undefined,
    ],
    [
      'CreateNodegroup',
      'ResourceLimitExceededException',
      400,
      /CreateNodegroup .*ResourceLimitExceededException.*quota/,
      undefined,
    ],
    [
      'CreateLaunchTemplate',
      'UnauthorizedOperation',
      403,
      /CreateLaunchTemplate: UnauthorizedOperation/,
      undefined,
    ],
  ])('%s fails with %s', async (op, code, status, message, text) => {
    proxy.rules = [
      {
        op,
        nth: 'every',
        fault: { kind: 'status', status, code, ...(text ? { message: text } : {}) },
      },
    ];
    const { error, state } = await acquire();
    expect(error).toMatch(message);
    expect(isEmpty(state)).toBe(true);
  });

  it('a cluster name already in use: refused, and the other cluster left alone', async () => {
    const clients = motoClients(moto.url);
    await clients.eks.send(
      new CreateClusterCommand({
        name: 'duetkit-taken',
        roleArn: ROLES.clusterRole,
        resourcesVpcConfig: {},
      }),
    );
    const { error } = await acquire({}, {}, { runId: 'taken' });
    expect(error).toMatch(
      /a cluster named duetkit-taken already exists in us-east-1; pick another name/,
    );
    expect(
      (await clients.eks.send(new DescribeClusterCommand({ name: 'duetkit-taken' }))).cluster
        ?.status,
    ).toBe('ACTIVE');
    await clients.eks.send(
      new (await import('@aws-sdk/client-eks')).DeleteClusterCommand({ name: 'duetkit-taken' }),
    );
  });
});

describe('faults (a sample; the whole matrix is npm run bench:cluster-faults)', () => {
  it.each(['CreateCluster', 'DescribeCluster', 'CreateNodegroup', 'DescribeNodegroup'])(
    'a 500 and a throttle on %s are retried by the SDK: the cluster comes up and goes',
    async (op) => {
      proxy.rules = [
        { op, nth: 1, fault: { kind: 'status', status: 500, code: 'ServerException' } },
        { op, nth: 2, fault: { kind: 'status', status: 429, code: 'ThrottlingException' } },
      ];
      const { acquired, error } = await acquire();
      expect(error).toBeNull();
      await acquired!.release();
    },
  );

  it('a response slower than the request timeout is retried', async () => {
    proxy.rules = [{ op: 'CreateNodegroup', nth: 1, fault: { kind: 'late', ms: 3000 } }];
    const { acquired, error } = await acquire(
      {},
      {},
      { env: { DUETKIT_AWS_REQUEST_TIMEOUT_MS: '1500' } },
    );
    expect(proxy.calls.filter((c) => c === 'CreateNodegroup').length).toBeGreaterThanOrEqual(2);
    expect(error).toBeNull();
    await acquired!.release();
  });

  it('a persistent failure of DeleteNodegroup: warned, and the post step deletes it later', async () => {
    const { acquired } = await acquire();
    proxy.rules = [
      {
        op: 'DeleteNodegroup',
        nth: 'every',
        fault: { kind: 'status', status: 503, code: 'ServiceUnavailableException' },
      },
    ];
    await expect(acquired!.release()).rejects.toThrow(/ServiceUnavailableException/);
    proxy.rules = [];
    const state: ClusterState = JSON.parse(
      JSON.stringify({
        schemaVersion: 1,
        runId: 't-left',
        provider: 'eks',
        eks: {
          region: 'us-east-1',
          endpoint: proxy.url,
          ec2Endpoint: proxy.url,
          reuse: false,
          cluster: acquired!.name,
          launchTemplate: acquired!.name,
        },
      }),
    );
    // Deleted only while it carries this run's tag: the right run id.
    state.runId = (
      await motoClients(moto.url).eks.send(new DescribeClusterCommand({ name: acquired!.name }))
    ).cluster!.tags![TAGS.runId]!;
    expect(await cleanUpState(state, { env: eksEnv(), log: () => undefined, pollMs: 20 })).toEqual(
      [],
    );
  });
});

describe('killed at a step (a sample of the kill matrix)', () => {
  it.each([
    [2, 'SIGKILL'],
    [4, 'SIGKILL'],
    [6, 'SIGKILL'],
    [4, 'SIGTERM'],
  ] as const)(
    'killed at call %i with %s: after the post step and reap, 0 duetkit clusters',
    async (step, signal) => {
      proxy.slowPhases = { cluster: 2, nodegroup: 2 };
      const outcome = await killCase({ step, signal }, { dir, proxy, motoUrl: moto.url });
      expect(outcome.op).not.toBeNull();
      expect(outcome.afterReap).toEqual({ clusters: 0, templates: 0 });
      // The post step alone already sufficed: the state named everything.
      expect(outcome.afterPost).toBe(0);
    },
  );
});
