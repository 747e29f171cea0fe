import { z } from 'zod';
import { duration } from '../scenario/fields.js';

/**
 * The scenario's `cluster:` field: run the benchmark in a Kubernetes cluster instead of on the
 * machine running duetkit. Documented field by field in docs/cluster.md; every default is
 * stated there and here. Without `cluster:` nothing changes.
 */

export const CLUSTER_PROVIDERS = ['existing', 'eks', 'kind'] as const;
export type ClusterProviderName = (typeof CLUSTER_PROVIDERS)[number];

/** The image used when the scenario names none: Node.js only (duetkit's bundle is copied in). */
export const DEFAULT_IMAGE = 'node:24-bookworm-slim';
/** A cluster (and every AWS resource) never lives longer than this unless the scenario says. */
export const DEFAULT_MAX_LIFETIME_S = 2 * 3600;

/** A Kubernetes object name (RFC 1123 label): lower case letters, digits and "-". */
const dnsLabel = z
  .string()
  .max(40)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'lower-case letters, digits and "-", at most 40');

/** An EKS cluster name (AWS: letters, digits, "-" and "_", starting with a letter or digit). */
const eksName = z
  .string()
  .max(60)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, "-" and "_", at most 60');

const memory = z
  .string()
  .regex(/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/, 'a Kubernetes quantity such as "2Gi" or "512Mi"');

const existing = z
  .object({
    /** Kubeconfig file, relative to the scenario. Default: `$KUBECONFIG`, else ~/.kube/config. */
    kubeconfig: z.string().min(1).optional(),
    /** Context of the kubeconfig. Default: its current context. */
    context: z.string().min(1).optional(),
  })
  .strict();

const eks = z
  .object({
    /** AWS region. Default: `$AWS_REGION`, else `$AWS_DEFAULT_REGION`. */
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as us-east-1')
      .optional(),
    /** Kubernetes version of the control plane. Default: EKS's default. */
    version: z
      .string()
      .regex(/^1\.\d+$/, 'a Kubernetes minor version such as "1.33"')
      .optional(),
    /** EC2 instance type of the nodes. */
    instanceType: z
      .string()
      .regex(/^[a-z0-9-]+\.[a-z0-9]+$/, 'an EC2 instance type such as m5.xlarge')
      .default('m5.xlarge'),
    /** Number of nodes in the managed node group. */
    nodes: z.number().int().min(1).max(20).default(1),
    /** The subnets of the cluster and its nodes (at least two, in different zones). */
    subnets: z
      .array(z.string().regex(/^subnet-[0-9a-f]+$/, 'a subnet id: subnet-…'))
      .min(2, 'at least two subnets in two availability zones (EKS requires it)'),
    securityGroups: z
      .array(z.string().regex(/^sg-[0-9a-f]+$/, 'a security group id: sg-…'))
      .default([]),
    /** IAM role EKS uses for the control plane (docs/eks-iam.yml creates it). */
    clusterRole: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/,
        'an IAM role ARN: arn:aws:iam::ACCOUNT:role/NAME',
      ),
    /** IAM role of the nodes (docs/eks-iam.yml creates it). */
    nodeRole: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/,
        'an IAM role ARN: arn:aws:iam::ACCOUNT:role/NAME',
      ),
    /** AMI type of the node group; AL2023 reads the kubelet settings from the launch template. */
    amiType: z
      .enum(['AL2023_x86_64_STANDARD', 'AL2023_ARM_64_STANDARD'])
      .default('AL2023_x86_64_STANDARD'),
    /** The EKS API's URL (tests point it at moto); default AWS's own. */
    endpoint: z.string().url().optional(),
    /** The EC2 API's URL (tests); default AWS's own. */
    ec2Endpoint: z.string().url().optional(),
    /** How long creating the cluster and node group may take. */
    createTimeout: duration.default(40 * 60),
    /** How long deleting them may take. */
    deleteTimeout: duration.default(30 * 60),
  })
  .strict();

const kind = z
  .object({
    /** The kind node image (kindest/node:vX.Y.Z). Default: kind's own default. */
    nodeImage: z.string().min(1).optional(),
    /** The kind command. */
    command: z.string().min(1).default('kind'),
  })
  .strict();

export const clusterSchema = z
  .object({
    provider: z.enum(CLUSTER_PROVIDERS),
    /** The benchmark pod's image: the toolchains the benchmark needs, and Node.js ≥ 20. */
    image: z.string().min(1).default(DEFAULT_IMAGE),
    imagePullPolicy: z.enum(['IfNotPresent', 'Always', 'Never']).default('IfNotPresent'),
    /**
     * Whole CPUs of the Guaranteed pod, which the static CPU manager gives it exclusively.
     * Default: what the mode needs for full isolation — a duet 3 (one per side and one for
     * duetkit), the sequential modes 2.
     */
    cpus: z.number().int().min(1).max(256).optional(),
    /** Memory of the pod (its request and its limit). */
    memory: memory.default('2Gi'),
    /** The per-run namespace is `<namespace>-<run id>`, labelled with the run id. */
    namespace: dnsLabel.default('duetkit'),
    /** Node labels the duet pod must run on (e.g. a node pool of quiet instances). */
    nodeSelector: z.record(z.string(), z.string()).default({}),
    /**
     * A long-lived cluster of this name (eks, kind): created when missing, kept afterwards, for
     * scheduled runs. Without it every run provisions its own cluster and deletes it.
     */
    reuse: eksName.optional(),
    /**
     * Hard limit on the life of everything duetkit creates: the benchmark Job's deadline, and
     * the `duetkit:expires-at` tag `duetkit cluster reap` deletes by.
     */
    maxLifetime: duration.default(DEFAULT_MAX_LIFETIME_S),
    /** How long the pod may take to be scheduled and started (image pull included). */
    startTimeout: duration.default(600),
    /** Price of one node per hour (any currency), for the cost estimate in the report. */
    pricePerNodeHour: z.number().nonnegative().optional(),
    existing: existing.default(() => existing.parse({})),
    eks: eks.optional(),
    kind: kind.default(() => kind.parse({})),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.provider === 'eks' && c.eks === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['eks'],
        message:
          'the EKS settings with provider: eks: subnets, clusterRole and nodeRole at least (docs/cluster.md#eks)',
      });
    }
    if (c.reuse !== undefined && c.provider === 'existing') {
      ctx.addIssue({
        code: 'custom',
        path: ['reuse'],
        message: 'reuse only with provider eks or kind (an existing cluster is always kept)',
      });
    }
  });

export type ClusterSpec = z.output<typeof clusterSchema>;
export type EksSpec = NonNullable<ClusterSpec['eks']>;

/** CPUs of the pod: the scenario's, else what the mode needs for full isolation. */
export function podCpus(spec: ClusterSpec, mode: string): number {
  return spec.cpus ?? (mode === 'duet' ? 3 : 2);
}
