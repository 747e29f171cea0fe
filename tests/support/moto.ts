import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * moto's server (`moto[server]` from PyPI, installed by .ci/setup-k8s.sh) on 127.0.0.1: a real
 * AWS API stand-in for EKS, EC2 and STS. Each test file starts its own (fresh accounts).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
export const MOTO = path.join(ROOT, '.tools/k8s/bin/moto_server');

export interface Moto {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Dummy credentials: moto accepts any, and nothing here can reach AWS. */
export const AWS_TEST_ENV = {
  AWS_ACCESS_KEY_ID: 'AKIDDUETKITTEST',
  AWS_SECRET_ACCESS_KEY: 'duetkit-test-secret',
  AWS_REGION: 'us-east-1',
  AWS_EC2_METADATA_DISABLED: 'true',
};

export async function startMoto(): Promise<Moto> {
  if (!existsSync(MOTO)) {
    throw new Error(
      `${MOTO} is missing: run bash .ci/setup-k8s.sh (npm run test:all runs it first)`,
    );
  }
  const port = await freePort();
  const child: ChildProcess = spawn(MOTO, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...AWS_TEST_ENV },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited: ${stderr}`);
    try {
      const response = await fetch(`${url}/moto-api/`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 30_000) {
      child.kill('SIGKILL');
      throw new Error(`moto_server did not start in 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // moto loads its EC2 instance-type data on the first such call (seconds): before any test.
  await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `AWS4-HMAC-SHA256 Credential=${AWS_TEST_ENV.AWS_ACCESS_KEY_ID}/20260101/us-east-1/ec2/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: 'Action=DescribeInstanceTypes&Version=2016-11-15&InstanceType.1=m5.large',
  }).catch(() => undefined);
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
