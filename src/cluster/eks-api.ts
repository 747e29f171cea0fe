import { EC2Client } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient, type Cluster } from '@aws-sdk/client-eks';
import { sleep } from './pod.js';
import { ClusterError } from './types.js';

/** The AWS clients of one region (endpoints overridable for tests against moto). */
export interface AwsClients {
  region: string;
  eks: EKSClient;
  ec2: EC2Client;
}

export interface AwsTarget {
  region: string;
  endpoint?: string;
  ec2Endpoint?: string;
}

/** Per-request timeout: a hung call is retried by the SDK, not waited for forever. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Credentials come from the SDK's default chain: in GitHub Actions, the environment that
 * aws-actions/configure-aws-credentials sets from the OIDC role (docs/cluster.md#eks).
 */
export function awsClients(target: AwsTarget, env: NodeJS.ProcessEnv): AwsClients {
  const requestTimeout = Number(env.DUETKIT_AWS_REQUEST_TIMEOUT_MS) || REQUEST_TIMEOUT_MS;
  // Keys in the given environment (what configure-aws-credentials exports), else the SDK's
  // default chain (web identity, profiles, instance metadata).
  const keys =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {};
  const common = {
    ...keys,
    region: target.region,
    maxAttempts: Number(env.DUETKIT_AWS_MAX_ATTEMPTS) || 5,
    // The SDK builds its Node.js handler from these options.
    requestHandler: { requestTimeout, connectionTimeout: 10_000, throwOnRequestTimeout: true },
  };
  return {
    region: target.region,
    eks: new EKSClient({
      ...common,
      ...(target.endpoint === undefined ? {} : { endpoint: target.endpoint }),
    }),
    ec2: new EC2Client({
      ...common,
      ...(target.ec2Endpoint === undefined ? {} : { endpoint: target.ec2Endpoint }),
    }),
  };
}

/** The region: the scenario's, else $AWS_REGION, else $AWS_DEFAULT_REGION. */
export function regionOf(region: string | undefined, env: NodeJS.ProcessEnv): string {
  const found = region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (found === undefined || found === '') {
    throw new ClusterError(
      'cluster.eks.region: not set, and neither is $AWS_REGION; name the region (e.g. us-east-1)',
    );
  }
  return found;
}

/** An AWS error in one line: its code and message, and what to do for the common ones. */
export function describeAwsError(error: unknown): string {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const name = e.name ?? 'Error';
  const hint = HINTS[name] ?? '';
  const status = e.$metadata?.httpStatusCode;
  return `${name}${status === undefined ? '' : ` (HTTP ${status})`}: ${e.message ?? String(error)}${hint}`;
}

const HINTS: Record<string, string> = {
  AccessDeniedException:
    ' — the role lacks a permission duetkit needs (docs/eks-iam.yml lists them)',
  UnauthorizedOperation:
    ' — the role lacks a permission duetkit needs (docs/eks-iam.yml lists them)',
  ResourceLimitExceededException: ' — an AWS quota is reached; delete unused clusters or raise it',
  ResourceInUseException: ' — the name is taken',
  InvalidParameterException: '',
  ThrottlingException: ' — AWS throttled the calls (the SDK retried)',
  CredentialsProviderError:
    ' — no AWS credentials: in GitHub Actions, use aws-actions/configure-aws-credentials with an OIDC role',
};

/** The error's AWS code (`ResourceNotFoundException`…), or undefined. */
export function awsCode(error: unknown): string | undefined {
  return (error as { name?: string }).name;
}

export function isNotFound(error: unknown): boolean {
  const code = awsCode(error);
  return (
    code === 'ResourceNotFoundException' ||
    code === 'InvalidLaunchTemplateName.NotFoundException' ||
    code === 'InvalidLaunchTemplateId.NotFound' ||
    code === 'InvalidLaunchTemplateId.NotFoundException'
  );
}

/**
 * Polls `describe` until `done` says the status is reached, reporting each new status. Fails
 * when `failed` says so or after `timeoutMs`. Transient errors are retried by the SDK.
 */
export async function waitFor<T>(options: {
  what: string;
  describe: () => Promise<T>;
  status: (value: T) => string;
  done: (status: string) => boolean;
  failed?: (status: string, value: T) => string | null;
  timeoutMs: number;
  pollMs: number;
  log: (line: string) => void;
  signal?: AbortSignal;
}): Promise<T> {
  const started = Date.now();
  let last = '';
  for (;;) {
    if (options.signal?.aborted) {
      throw new ClusterError(
        `interrupted by ${String(options.signal.reason)} while waiting for ${options.what}`,
      );
    }
    const value = await options.describe();
    const status = options.status(value);
    if (status !== last) {
      options.log(`${options.what}: ${status} (${Math.round((Date.now() - started) / 1000)} s)`);
      last = status;
    }
    if (options.done(status)) return value;
    const failure = options.failed?.(status, value) ?? null;
    if (failure !== null) throw new ClusterError(`${options.what}: ${failure}`);
    if (Date.now() - started >= options.timeoutMs) {
      throw new ClusterError(
        `${options.what}: still ${status} after ${Math.round(options.timeoutMs / 1000)} s`,
      );
    }
    await sleep(options.pollMs, options.signal);
  }
}

export async function describeCluster(clients: AwsClients, name: string): Promise<Cluster | null> {
  try {
    return (await clients.eks.send(new DescribeClusterCommand({ name }))).cluster ?? null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw new ClusterError(`DescribeCluster ${name}: ${describeAwsError(error)}`);
  }
}

/** An AWS call whose failure becomes one line naming the call (or field) and the AWS error. */
export async function aws<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ClusterError) throw error;
    throw new ClusterError(`${what}: ${describeAwsError(error)}`);
  }
}

/** Tags on every AWS resource duetkit creates; `duetkit cluster reap` reads them. */
export const TAGS = {
  runId: 'duetkit:run-id',
  repository: 'duetkit:repository',
  expiresAt: 'duetkit:expires-at',
  /** On a cluster kept for `cluster.reuse`: its reuse name. */
  reuse: 'duetkit:reuse',
} as const;

/** Polling interval while EKS creates or deletes (tests shorten it with the variable). */
export function pollMs(env: NodeJS.ProcessEnv): number {
  return Number(env.DUETKIT_EKS_POLL_MS) || 15_000;
}
