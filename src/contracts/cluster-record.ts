import type { Scenario } from '../scenario/schema.js';

/** The cluster provider of a scenario's `cluster:` (cluster/schema.ts: existing, eks, kind). */
type ClusterProviderName = NonNullable<Scenario['cluster']>['provider'];

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
