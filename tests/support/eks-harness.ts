import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DescribeLaunchTemplatesCommand } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, ListClustersCommand } from '@aws-sdk/client-eks';
import { cleanUpState } from '../../src/cluster/cleanup.js';
import { awsClients, type AwsClients } from '../../src/cluster/eks-api.js';
import { reap } from '../../src/cluster/eks-reap.js';
import { TAGS } from '../../src/cluster/eks.js';
import { readStateFile } from '../../src/cluster/state.js';
import { AWS_TEST_ENV } from './moto.js';
import type { FaultProxy } from './fault-proxy.js';

/**
 * What the EKS tests and the fault-matrix benchmark share: the environment that points the SDK
 * at moto (through the fault proxy) with short timeouts, a scenario file for provider eks, a
 * child `duetkit cluster create` to kill, and the count the whole proof is about — duetkit
 * clusters left in the account.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Generous request timeouts by default: moto is slow on a busy machine. */
export function eksEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...AWS_TEST_ENV,
    DUETKIT_EKS_POLL_MS: '20',
    DUETKIT_AWS_MAX_ATTEMPTS: '3',
    DUETKIT_AWS_REQUEST_TIMEOUT_MS: '15000',
    ...overrides,
  };
}

export const ROLES = {
  clusterRole: 'arn:aws:iam::123456789012:role/duetkit-cluster',
  nodeRole: 'arn:aws:iam::123456789012:role/duetkit-node',
};

export function eksSpec(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'eks',
    cpus: 1,
    eks: {
      region: 'us-east-1',
      endpoint: url,
      ec2Endpoint: url,
      instanceType: 'm5.large',
      subnets: ['subnet-0a1b2c3d', 'subnet-4e5f6a7b'],
      ...ROLES,
      ...extra,
    },
  };
}

/** A scenario file for provider eks in `dir`. */
export function eksScenarioFile(dir: string, url: string): string {
  const file = path.join(dir, 'eks.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'eks',
      mode: 'rmit',
      versions: [
        { name: 'a', path: '.' },
        { name: 'b', path: '.' },
      ],
      workload: { command: 'true' },
      cluster: eksSpec(url),
    }),
  );
  return file;
}

/** Clusters carrying duetkit's run-id tag, and duetkit's launch templates. */
export async function duetkitLeftovers(
  clients: AwsClients,
): Promise<{ clusters: string[]; templates: string[] }> {
  const clusters: string[] = [];
  for (const name of (await clients.eks.send(new ListClustersCommand({}))).clusters ?? []) {
    const tags = (await clients.eks.send(new DescribeClusterCommand({ name }))).cluster?.tags ?? {};
    if (tags[TAGS.runId] !== undefined) clusters.push(name);
  }
  const templates =
    (
      await clients.ec2.send(
        new DescribeLaunchTemplatesCommand({
          Filters: [{ Name: 'tag-key', Values: [TAGS.runId] }],
        }),
      )
    ).LaunchTemplates?.map((t) => t.LaunchTemplateName!) ?? [];
  return { clusters, templates };
}

/** Clients straight to moto (not through the proxy), for checking. */
export function motoClients(motoUrl: string): AwsClients {
  return awsClients({ region: 'us-east-1', endpoint: motoUrl, ec2Endpoint: motoUrl }, eksEnv());
}

export interface KillCase {
  /** Kill when the proxy sees call number `step` (0-based), before forwarding it. */
  step: number;
  signal: 'SIGTERM' | 'SIGKILL';
}

export interface KillOutcome {
  op: string | null;
  exit: number | null;
  /** Clusters left after the post step (`cluster delete --state`). */
  afterPost: number;
  /** Clusters and templates left after the post step and `reap` (with every tag expired). */
  afterReap: { clusters: number; templates: number };
}

/**
 * One case of the kill matrix: `duetkit cluster create` in a child process, killed when the
 * proxy sees call `step` (SIGTERM, then SIGKILL after `graceMs`, as GitHub does on
 * cancellation), the call then let through (it reached AWS, the client is gone); then the post
 * step's cleanup of the state file the child left, then `reap` as if every expiry had passed.
 */
export async function killCase(
  kill: KillCase,
  context: { dir: string; proxy: FaultProxy; motoUrl: string; graceMs?: number },
): Promise<KillOutcome> {
  const scenario = eksScenarioFile(context.dir, context.proxy.url);
  const stateFile = path.join(context.dir, `state-${kill.step}-${kill.signal}.json`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      TSX,
      path.join(ROOT, 'src/cli/bin.ts'),
      'cluster',
      'create',
      scenario,
      '--state',
      stateFile,
    ],
    { env: eksEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const start = context.proxy.calls.length;
  let op: string | null = null;
  context.proxy.onCall = async (index, name) => {
    if (index - start !== kill.step) return;
    op = name;
    child.kill(kill.signal);
    if (kill.signal === 'SIGTERM') {
      const timer = setTimeout(() => child.kill('SIGKILL'), context.graceMs ?? 3000);
      // SIGTERM: the process cleans up itself, its calls must go through meanwhile.
      void exited.then(() => clearTimeout(timer));
      return;
    }
    await exited;
  };
  const exit = await exited;
  // The post step runs after the job's process is gone; by then a call it had sent has
  // reached AWS.
  await context.proxy.idle();
  context.proxy.onCall = null;
  const clients = motoClients(context.motoUrl);
  if (existsSync(stateFile)) {
    await cleanUpState(readStateFile(stateFile), {
      env: eksEnv(),
      log: () => undefined,
      pollMs: 20,
    });
  }
  const afterPost = (await duetkitLeftovers(clients)).clusters.length;
  await reap(clients, {
    dryRun: false,
    now: new Date(Date.now() + 400 * 24 * 3600 * 1000),
    log: () => undefined,
    pollMs: 20,
  });
  const left = await duetkitLeftovers(clients);
  if (left.clusters.length > 0 && process.env.DUETKIT_DEBUG_KILL) process.stderr.write(stderr);
  return {
    op,
    exit,
    afterPost,
    afterReap: { clusters: left.clusters.length, templates: left.templates.length },
  };
}
