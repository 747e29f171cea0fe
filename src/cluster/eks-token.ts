import { KubeConfig, type User } from '@kubernetes/client-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type {
  AwsCredentialIdentity,
  ChecksumConstructor,
  HashConstructor,
  Provider,
} from '@smithy/types';

/**
 * The bearer token EKS accepts: `k8s-aws-v1.` + the base64url of an STS GetCallerIdentity URL,
 * presigned (SigV4, query parameters) with the caller's credentials and the cluster's name in
 * the signed `x-k8s-aws-id` header. The API server's authenticator replays the URL to STS and
 * maps the identity it gets back. Built here with the SDK's signer: no aws CLI, no external
 * authenticator. EKS rejects tokens older than 15 minutes.
 */
export interface TokenSource {
  region: string;
  credentials: Provider<AwsCredentialIdentity> | AwsCredentialIdentity;
  sha256: ChecksumConstructor | HashConstructor;
  /** The STS host; default the regional one, sts.REGION.amazonaws.com. */
  stsHost?: string;
}

export const TOKEN_PREFIX = 'k8s-aws-v1.';
/** Seconds the presigned URL is valid (EKS accepts at most 15 minutes from signing). */
const URL_LIFETIME_S = 60;

export async function eksToken(
  cluster: string,
  source: TokenSource,
  now = new Date(),
): Promise<string> {
  const hostname = source.stsHost ?? `sts.${source.region}.amazonaws.com`;
  const signer = new SignatureV4({
    credentials: source.credentials,
    region: source.region,
    service: 'sts',
    sha256: source.sha256,
    uriEscapePath: true,
  });
  const signed = await signer.presign(
    {
      method: 'GET',
      protocol: 'https:',
      hostname,
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
      headers: { host: hostname, 'x-k8s-aws-id': cluster },
    },
    { expiresIn: URL_LIFETIME_S, signingDate: now },
  );
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(signed.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== null) query.append(key, v);
  }
  const url = `https://${hostname}/?${query.toString()}`;
  return TOKEN_PREFIX + Buffer.from(url).toString('base64url');
}

/** The name of the auth provider entry our kubeconfigs carry (see `eksKubeConfig`). */
const AUTH_PROVIDER = 'duetkit-eks';
/** A token is used this long, then a new one is signed (they live 15 minutes). */
const REFRESH_MS = 10 * 60 * 1000;

/**
 * A kubeconfig for an EKS cluster: its endpoint and CA, and a user whose token duetkit signs
 * itself and renews every 10 minutes, so runs longer than a token's life keep their access.
 */
export function eksKubeConfig(options: {
  cluster: string;
  endpoint: string;
  caData: string;
  source: TokenSource;
}): KubeConfig {
  const config = new KubeConfig();
  let cached: { token: string; at: number } | null = null;
  config.addAuthenticator({
    isAuthProvider: (user: User) => user.authProvider?.name === AUTH_PROVIDER,
    async applyAuthentication(_user, opts) {
      if (cached === null || Date.now() - cached.at > REFRESH_MS) {
        cached = { token: await eksToken(options.cluster, options.source), at: Date.now() };
      }
      opts.headers = { ...opts.headers, Authorization: `Bearer ${cached.token}` };
    },
  });
  config.loadFromOptions({
    clusters: [{ name: options.cluster, server: options.endpoint, caData: options.caData }],
    users: [{ name: 'duetkit', authProvider: { name: AUTH_PROVIDER, config: {} } }],
    contexts: [{ name: options.cluster, cluster: options.cluster, user: 'duetkit' }],
    currentContext: options.cluster,
  });
  return config;
}
