import type { V1Node } from '@kubernetes/client-node';
import type { ClusterCost } from '../contracts/cluster-record.js';

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
