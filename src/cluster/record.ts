import type { V1Node } from '@kubernetes/client-node';
import type { ClusterProviderName } from './schema.js';

/**
 * Where a cluster run ran, recorded in samples.json (`cluster`). The first five fields are
 * the infrastructure identity the history keeps (`infrastructure.cluster` of a history entry),
 * so nightly analyses can compare reused clusters with freshly provisioned ones.
 */
export interface ClusterRecord {
  provider: ClusterProviderName;
  /** The cluster's name. */
  name: string;
  nodeName: string | null;
  /** The cloud instance behind the node (EC2 `i-…`), from its providerID. */
  instanceId: string | null;
  /** `node.kubernetes.io/instance-type`, e.g. m5.xlarge. */
  instanceType: string | null;
  /** True when the cluster outlives the run (existing, or `cluster.reuse`). */
  kept: boolean;
  namespace: string;
  pod: string | null;
  image: string;
  /** Whole CPUs the pod asked for (requests = limits: Guaranteed QoS). */
  cpus: number;
  /** The CPUs the container may use, as seen from inside it (its affinity list). */
  cpuset: string | null;
  /**
   * True when those CPUs are the container's alone: exactly `cpus` of them, fewer than the
   * node has (the static CPU manager assigned them). False: it shares the node's CPUs.
   */
  exclusive: boolean | null;
  nodeCpus: number | null;
  /** Seconds, measured by the machine that ran duetkit (null: that stage was not reached). */
  timings: {
    /** Creating the cluster (0 when it existed). */
    provision: number | null;
    /** Namespace and Job created until the pod ran. */
    podStart: number | null;
    /** Code, bundle and scenario copied in. */
    copy: number | null;
    /** From the start of `duetkit run` to the end of the first pair (or trial round). */
    toFirstPair: number | null;
    /** The whole run, cluster creation and deletion included. */
    total: number | null;
  };
  cost: ClusterCost | null;
  /** What makes this run weaker than it could be; shown to the user. */
  warnings: string[];
}

/** What the nodes cost while duetkit used them. */
export interface ClusterCost {
  nodes: number;
  /** Node-hours (instance-hours): nodes × hours from provisioning (or the pod's start) to the end. */
  nodeHours: number;
  /** With `cluster.pricePerNodeHour`: nodeHours × price. */
  estimate: number | null;
  pricePerNodeHour: number | null;
}

export function costOf(
  nodes: number,
  since: Date,
  until: Date,
  pricePerNodeHour: number | undefined,
): ClusterCost {
  const nodeHours = (nodes * Math.max(0, until.getTime() - since.getTime())) / 3_600_000;
  return {
    nodes,
    nodeHours: round(nodeHours, 4),
    estimate: pricePerNodeHour === undefined ? null : round(nodeHours * pricePerNodeHour, 4),
    pricePerNodeHour: pricePerNodeHour ?? null,
  };
}

/** Instance id and type of a node, from what the cloud provider wrote on it. */
export function nodeIdentity(node: V1Node): {
  instanceId: string | null;
  instanceType: string | null;
  cpus: number | null;
} {
  const labels = node.metadata?.labels ?? {};
  const providerId = node.spec?.providerID;
  // aws:///us-east-1a/i-0abc…, kind://docker/cluster/node, gce://project/zone/name
  const instanceId =
    providerId === undefined || providerId === '' ? null : (providerId.split('/').at(-1) ?? null);
  const cpus = Number(node.status?.capacity?.cpu);
  return {
    instanceId: instanceId === '' ? null : instanceId,
    instanceType:
      labels['node.kubernetes.io/instance-type'] ??
      labels['beta.kubernetes.io/instance-type'] ??
      null,
    cpus: Number.isInteger(cpus) ? cpus : null,
  };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
