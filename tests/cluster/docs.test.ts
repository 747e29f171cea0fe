import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';

/**
 * docs/eks-iam.yml, the template users deploy before their first EKS run: valid CloudFormation
 * (cfn-lint, installed by .ci/setup-k8s.sh), and a role that allows every AWS call duetkit's
 * code makes — no more guessing which permission is missing from an AccessDenied.
 */
const TEMPLATE = 'docs/eks-iam.yml';
const CFN_LINT = path.resolve('.tools/k8s/bin/cfn-lint');

it('cfn-lint finds no problem in the template', async () => {
  if (!existsSync(CFN_LINT)) {
    throw new Error(
      `${CFN_LINT} is missing: run bash .ci/setup-k8s.sh (npm run test:all runs it first)`,
    );
  }
  const output = await new Promise<string>((resolve) => {
    execFile(CFN_LINT, [TEMPLATE], (error, stdout, stderr) =>
      resolve(error === null ? '' : `${stdout}${stderr}`),
    );
  });
  expect(output).toBe('');
}, 60_000);

it('the role allows every EKS and EC2 call of src/cluster/', () => {
  // CloudFormation's short tags (!Ref, !Sub…) are kept as plain values.
  const doc = parseDocument(readFileSync(TEMPLATE, 'utf8'), {
    customTags: ['Ref', 'Sub', 'GetAtt', 'Select', 'Cidr', 'GetAZs', 'Join', 'Equals'].map(
      (tag) => ({
        tag: `!${tag}`,
        resolve: (value: unknown) => value,
      }),
    ) as never,
  }).toJS() as {
    Resources: {
      DuetkitRole: {
        Properties: {
          Policies: { PolicyDocument: { Statement: { Action: string | string[] }[] } }[];
        };
      };
    };
  };
  const allowed = new Set(
    doc.Resources.DuetkitRole.Properties.Policies.flatMap(
      (p) => p.PolicyDocument.Statement,
    ).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])),
  );
  const used = new Set<string>();
  for (const file of readdirSync('src/cluster').filter((f) => f.startsWith('eks'))) {
    const text = readFileSync(path.join('src/cluster', file), 'utf8');
    const service = (name: string): string =>
      new RegExp(`\\b${name}(Command)?\\b[^;]*from '@aws-sdk/client-ec2'`).test(text)
        ? 'ec2'
        : 'eks';
    for (const m of text.matchAll(/new (\w+)Command\(/g)) used.add(`${service(m[1]!)}:${m[1]}`);
    for (const m of text.matchAll(/paginate(\w+)\(/g)) used.add(`eks:${m[1]}`);
  }
  for (const action of [
    'ec2:CreateLaunchTemplate',
    'ec2:DescribeInstanceTypes',
    'eks:CreateCluster',
    'eks:ListClusters',
  ]) {
    expect(used.has(action)).toBe(true);
  }
  expect(used.size).toBeGreaterThanOrEqual(13);
  expect([...used].filter((action) => !allowed.has(action))).toEqual([]);
});
