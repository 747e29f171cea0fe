import {
  CreateLaunchTemplateCommand,
  DescribeInstanceTypesCommand,
  DescribeLaunchTemplatesCommand,
} from '@aws-sdk/client-ec2';
import {
  CreateClusterCommand,
  CreateNodegroupCommand,
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  TagResourceCommand,
  type Cluster,
} from '@aws-sdk/client-eks';
import {
  aws,
  awsClients,
  awsCode,
  describeAwsError,
  describeCluster,
  regionOf,
  pollMs,
  TAGS,
  waitFor,
  type AwsClients,
} from './eks-api.js';
import { deleteEks } from './eks-delete.js';

export { TAGS } from './eks-api.js';
import { nodeUserData } from './eks-node-config.js';
import { eksKubeConfig } from './eks-token.js';
import type { EksSpec } from './schema.js';
import type { EksState } from './state.js';
import {
  ClusterError,
  type AcquiredCluster,
  type ClusterProvider,
  type ProviderContext,
} from './types.js';

/** A reused cluster that no run has used for this long is reaped. */
export const REUSE_IDLE_MS = 8 * 24 * 3600 * 1000;

export function resourceNames(runId: string, reuse: string | undefined): EksNames {
  const base = reuse ?? `duetkit-${runId}`;
  return { cluster: base, nodegroup: `${base}-nodes`, launchTemplate: base };
}

interface EksNames {
  cluster: string;
  nodegroup: string;
  launchTemplate: string;
}

/**
 * provider: eks — an ephemeral EKS cluster and managed node group, made with the AWS SDK v3
 * and deleted afterwards (or kept under `cluster.reuse`). The state names each resource before
 * it is asked for, so a killed process leaves enough for the post step to delete it.
 */
export const eksProvider: ClusterProvider = {
  name: 'eks',
  async acquire(context) {
    const spec = context.spec.eks!;
    const region = regionOf(spec.region, context.env);
    const clients = awsClients({ region, ...endpoints(spec) }, context.env);
    const reuse = context.spec.reuse;
    const names = resourceNames(context.runId, reuse);
    context.state.update((s) => {
      s.eks = { region, ...endpoints(spec), reuse: reuse !== undefined };
    });
    if (reuse !== undefined) {
      const kept = await reusable(clients, names, context);
      if (kept !== null) return kept;
    }
    const started = Date.now();
    try {
      return await provision(clients, names, spec, context, started);
    } catch (error) {
      // Whatever this run created goes, a reuse cluster too: it never became usable.
      context.log(`provisioning failed; deleting what was created`);
      const state = context.state.current;
      if (state.eks !== undefined) state.eks.reuse = false;
      const warnings = await deleteEks(state, clients, {
        env: context.env,
        log: context.log,
        onProgress: () => context.state.update(() => undefined),
      });
      const left = warnings.length === 0 ? '' : `\nleft behind: ${warnings.join('; ')}`;
      throw new ClusterError(`${(error as Error).message}${left}`);
    }
  },
  async cleanUp(state, context) {
    if (state.eks === undefined) return [];
    return deleteEks(state, awsClients(state.eks, context.env), context);
  },
  async kubeConfigFor(state, env) {
    const eks = state.eks!;
    const clients = awsClients(eks, env);
    const cluster = await describeCluster(clients, eks.cluster!);
    return kubeConfigOf(clients, eks.cluster!, cluster!);
  },
};

function endpoints(spec: EksSpec): Pick<EksState, 'endpoint' | 'ec2Endpoint'> {
  return {
    ...(spec.endpoint === undefined ? {} : { endpoint: spec.endpoint }),
    ...(spec.ec2Endpoint === undefined ? {} : { ec2Endpoint: spec.ec2Endpoint }),
  };
}

function tags(context: ProviderContext, names: EksNames): Record<string, string> {
  const expiresAt =
    context.spec.reuse === undefined ? context.expiresAt : new Date(Date.now() + REUSE_IDLE_MS);
  return {
    [TAGS.runId]: context.runId,
    [TAGS.repository]: context.repository || 'unknown',
    [TAGS.expiresAt]: expiresAt.toISOString(),
    ...(context.spec.reuse === undefined ? {} : { [TAGS.reuse]: names.cluster }),
  };
}

async function provision(
  clients: AwsClients,
  names: EksNames,
  spec: EksSpec,
  context: ProviderContext,
  started: number,
): Promise<AcquiredCluster> {
  const { eks, ec2 } = clients;
  const tagMap = tags(context, names);
  const poll = pollMs(context.env);
  const described = await aws(`cluster.eks.instanceType "${spec.instanceType}"`, () =>
    ec2.send(new DescribeInstanceTypesCommand({ InstanceTypes: [spec.instanceType as never] })),
  );
  // The kubelet keeps one CPU (k8s/kubelet-cpu-manager.yaml): the pod needs the rest.
  const vcpus = described.InstanceTypes?.[0]?.VCpuInfo?.DefaultVCpus;
  if (vcpus !== undefined && vcpus < context.cpus + 1) {
    throw new ClusterError(
      `cluster.eks.instanceType "${spec.instanceType}" has ${vcpus} vCPUs: the benchmark pod asks for ${context.cpus} whole CPUs (cluster.cpus) and the kubelet keeps one; choose one with at least ${context.cpus + 1} vCPUs, or ask for fewer CPUs`,
    );
  }
  context.state.update((s) => void (s.eks!.launchTemplate = names.launchTemplate));
  context.log(`creating launch template ${names.launchTemplate} (static CPU manager)`);
  await adoptOwn(
    'CreateLaunchTemplate',
    async () => (await launchTemplateTags(clients, names.launchTemplate))?.[TAGS.runId],
    context.runId,
    () =>
      ec2.send(
        new CreateLaunchTemplateCommand({
          LaunchTemplateName: names.launchTemplate,
          LaunchTemplateData: { UserData: nodeUserData() },
          TagSpecifications: [
            {
              ResourceType: 'launch-template',
              Tags: Object.entries(tagMap).map(([Key, Value]) => ({ Key, Value })),
            },
          ],
        }),
      ),
  );
  context.state.update((s) => void (s.eks!.cluster = names.cluster));
  context.log(`creating EKS cluster ${names.cluster} in ${clients.region}`);
  try {
    await eks.send(
      new CreateClusterCommand({
        name: names.cluster,
        roleArn: spec.clusterRole,
        ...(spec.version === undefined ? {} : { version: spec.version }),
        resourcesVpcConfig: { subnetIds: spec.subnets, securityGroupIds: spec.securityGroups },
        tags: tagMap,
      }),
    );
  } catch (error) {
    const ours =
      awsCode(error) === 'ResourceInUseException' &&
      (await describeCluster(clients, names.cluster))?.tags?.[TAGS.runId] === context.runId;
    if (ours) {
      // A retry of our own create whose first attempt had gone through (a timeout, a reset).
    } else if (awsCode(error) === 'ResourceInUseException') {
      // Someone else's cluster: never ours to delete.
      context.state.update((s) => void delete s.eks!.cluster);
      throw new ClusterError(
        `CreateCluster: a cluster named ${names.cluster} already exists in ${clients.region}${context.spec.reuse === undefined ? '' : ' (cluster.reuse) but was not made by duetkit for reuse'}; pick another name`,
      );
    } else {
      throw new ClusterError(
        `CreateCluster (cluster.eks.clusterRole, subnets, securityGroups, version): ${describeAwsError(error)}`,
      );
    }
  }
  const timeoutMs = spec.createTimeout * 1000;
  await waitFor({
    what: `cluster ${names.cluster}`,
    describe: () =>
      aws('DescribeCluster', () => eks.send(new DescribeClusterCommand({ name: names.cluster }))),
    status: (r) => r.cluster?.status ?? 'UNKNOWN',
    done: (s) => s === 'ACTIVE',
    failed: (s) => (s === 'FAILED' || s === 'DELETING' ? `became ${s}` : null),
    timeoutMs,
    pollMs: poll,
    log: context.log,
    signal: context.signal,
  });
  context.state.update((s) => void (s.eks!.nodegroup = names.nodegroup));
  context.log(`creating node group ${names.nodegroup}: ${spec.nodes} × ${spec.instanceType}`);
  const billedSince = new Date();
  await adoptOwn(
    'CreateNodegroup (cluster.eks.nodeRole, instanceType, subnets)',
    async () =>
      (
        await clients.eks
          .send(
            new DescribeNodegroupCommand({
              clusterName: names.cluster,
              nodegroupName: names.nodegroup,
            }),
          )
          .catch(() => null)
      )?.nodegroup?.tags?.[TAGS.runId],
    context.runId,
    () =>
      eks.send(
        new CreateNodegroupCommand({
          clusterName: names.cluster,
          nodegroupName: names.nodegroup,
          scalingConfig: { minSize: spec.nodes, maxSize: spec.nodes, desiredSize: spec.nodes },
          subnets: spec.subnets,
          instanceTypes: [spec.instanceType],
          amiType: spec.amiType,
          nodeRole: spec.nodeRole,
          launchTemplate: { name: names.launchTemplate, version: '1' },
          labels: { 'duetkit.dev/run-id': context.runId },
          tags: tagMap,
        }),
      ),
  );
  await waitFor({
    what: `node group ${names.nodegroup}`,
    describe: () =>
      aws('DescribeNodegroup', () =>
        eks.send(
          new DescribeNodegroupCommand({
            clusterName: names.cluster,
            nodegroupName: names.nodegroup,
          }),
        ),
      ),
    status: (r) => r.nodegroup?.status ?? 'UNKNOWN',
    done: (s) => s === 'ACTIVE',
    failed: (s, r) =>
      s === 'CREATE_FAILED' || s === 'DEGRADED' || s === 'DELETING'
        ? `became ${s}: ${(r.nodegroup?.health?.issues ?? []).map((i) => `${i.code}: ${i.message}`).join('; ') || 'no reason given'}`
        : null,
    timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)),
    pollMs: poll,
    log: context.log,
    signal: context.signal,
  });
  const cluster = (await describeCluster(clients, names.cluster))!;
  const acquired: AcquiredCluster = {
    kubeConfig: kubeConfigOf(clients, names.cluster, cluster),
    name: names.cluster,
    kept: context.spec.reuse !== undefined,
    provisionSeconds: Math.round(Date.now() - started) / 1000,
    billedSince,
    nodes: spec.nodes,
    release: async () => {
      if (context.spec.reuse !== undefined) return;
      const warnings = await deleteEks(context.state.current, clients, {
        env: context.env,
        log: context.log,
        onProgress: () => context.state.update(() => undefined),
      });
      if (warnings.length > 0) throw new ClusterError(warnings.join('; '));
    },
  };
  return acquired;
}

/** A reuse cluster that exists and is duetkit's: its expiry pushed back, used as it is. */
async function reusable(
  clients: AwsClients,
  names: EksNames,
  context: ProviderContext,
): Promise<AcquiredCluster | null> {
  const cluster = await describeCluster(clients, names.cluster);
  if (cluster === null) return null;
  if (cluster.tags?.[TAGS.reuse] !== names.cluster) {
    throw new ClusterError(
      `cluster.reuse: a cluster named ${names.cluster} exists in ${clients.region} but was not made by duetkit for reuse (no ${TAGS.reuse} tag); pick another name`,
    );
  }
  if (cluster.status !== 'ACTIVE') {
    throw new ClusterError(
      `cluster.reuse: cluster ${names.cluster} is ${cluster.status}, not ACTIVE`,
    );
  }
  await aws('TagResource', () =>
    clients.eks.send(
      new TagResourceCommand({
        resourceArn: cluster.arn!,
        tags: { [TAGS.expiresAt]: new Date(Date.now() + REUSE_IDLE_MS).toISOString() },
      }),
    ),
  );
  context.log(`reusing EKS cluster ${names.cluster}`);
  const nodegroup = await aws('DescribeNodegroup', () =>
    clients.eks.send(
      new DescribeNodegroupCommand({ clusterName: names.cluster, nodegroupName: names.nodegroup }),
    ),
  );
  return {
    kubeConfig: kubeConfigOf(clients, names.cluster, cluster),
    name: names.cluster,
    kept: true,
    provisionSeconds: 0,
    billedSince: new Date(),
    nodes: nodegroup.nodegroup?.scalingConfig?.desiredSize ?? 1,
    release: async () => undefined,
  };
}

function kubeConfigOf(clients: AwsClients, name: string, cluster: Cluster) {
  const config = clients.eks.config;
  return eksKubeConfig({
    cluster: name,
    endpoint: cluster.endpoint!,
    caData: cluster.certificateAuthority?.data ?? '',
    source: { region: clients.region, credentials: config.credentials, sha256: config.sha256 },
  });
}

/**
 * A create call that may be a retry of one that went through (the SDK retries after a timeout
 * or a reset, and moto, unlike EKS, ignores the idempotency token): "already exists" for a
 * resource carrying this run's id is success; for anyone else's it is the error it says.
 */
async function adoptOwn(
  what: string,
  owner: () => Promise<string | undefined>,
  runId: string,
  call: () => Promise<unknown>,
): Promise<void> {
  try {
    await call();
  } catch (error) {
    const code = awsCode(error) ?? '';
    if (
      /ResourceInUse|AlreadyExists/.test(code) &&
      (await owner().catch(() => undefined)) === runId
    ) {
      return;
    }
    throw new ClusterError(`${what}: ${describeAwsError(error)}`);
  }
}

/** The tags of a launch template, or null when there is none of that name. */
async function launchTemplateTags(
  clients: AwsClients,
  name: string,
): Promise<Record<string, string> | null> {
  const found = await clients.ec2.send(
    new DescribeLaunchTemplatesCommand({
      Filters: [{ Name: 'launch-template-name', Values: [name] }],
    }),
  );
  const template = found.LaunchTemplates?.[0];
  return template === undefined
    ? null
    : Object.fromEntries((template.Tags ?? []).map((t) => [t.Key!, t.Value ?? '']));
}
