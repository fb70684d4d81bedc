/**
 * The real kubectl against the simulator's admission plugins: a ResourceQuota's refusal as
 * `kubectl apply` and `kubectl create` print it, `kubectl describe quota` with Used beside Hard,
 * a LimitRange's refusal, PodSecurity's warnings (`Warning: …`, from `Warning` response headers)
 * about the pods already in a namespace being labelled and about a Deployment, its enforce
 * refusal, and a pod naming a missing ServiceAccount.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

/** kubernetes/website content/en/examples/admin/resource/quota-pod.yaml, in its own namespace. */
const QUOTA_POD = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: pod-demo
  namespace: quota-pod-example
spec:
  hard:
    pods: "2"
`;

const namespace = (name: string): string => `apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
`;

/** What \`kubectl create deployment web --image=nginx\` sends. */
const deployment = (name: string, namespaceName: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespaceName}
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: nginx
        image: nginx
`;

const pod = (name: string, namespace: string, extra = ''): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespace}
spec:${extra}
  containers:
  - name: c
    image: nginx
`;

/** admin/resource/cpu-constraints.yaml and the docs' pod whose limit is over its max (cpu-constraints-pod-2.yaml). */
const CPU_CONSTRAINTS = `apiVersion: v1
kind: LimitRange
metadata:
  name: cpu-min-max-demo-lr
  namespace: constraints-cpu-example
spec:
  limits:
  - max:
      cpu: "800m"
    min:
      cpu: "200m"
    type: Container
`;
const CPU_CONSTRAINTS_POD_2 = `apiVersion: v1
kind: Pod
metadata:
  name: constraints-cpu-demo-2
  namespace: constraints-cpu-example
spec:
  containers:
  - name: constraints-cpu-demo-2-ctr
    image: nginx
    resources:
      limits:
        cpu: "1.5"
      requests:
        cpu: "500m"
`;

const RESTRICTED_VIOLATIONS =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: admission`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;
    const file = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-admission-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('refuses the pod past a pods quota with the quota message, from apply and from create', async () => {
      assert.equal((await kubectl('apply', '-f', file('quota-pod-example.yaml', namespace('quota-pod-example')))).code, 0);
      assert.equal((await kubectl('apply', '-f', file('quota.yaml', QUOTA_POD))).code, 0);
      for (const name of ['one', 'two']) assert.equal((await kubectl('apply', '-f', file(`${name}.yaml`, pod(name, 'quota-pod-example')))).code, 0);
      const applied = await kubectl('apply', '-f', file('three.yaml', pod('three', 'quota-pod-example')));
      assert.notEqual(applied.code, 0);
      assert.equal(applied.stderr.trim(), `Error from server (Forbidden): error when creating "${join(dir, 'three.yaml')}": pods "three" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2`);
      const created = await kubectl('create', '-f', join(dir, 'three.yaml'));
      assert.equal(created.stderr.trim(), `Error from server (Forbidden): error when creating "${join(dir, 'three.yaml')}": pods "three" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2`);
    });

    it('describes the quota with Used beside Hard', async () => {
      const described = await until('the quota controller to count both pods', async () => {
        const { stdout } = await kubectl('describe', 'quota', 'pod-demo', '-n', 'quota-pod-example');
        return /^pods\s+2\s+2$/m.test(stdout) ? stdout : undefined;
      });
      assert.match(described, /^Name:\s+pod-demo$/m);
      assert.match(described, /^Resource\s+Used\s+Hard$/m);
    });

    it('refuses a container over the LimitRange max with its message', async () => {
      assert.equal((await kubectl('apply', '-f', file('constraints-cpu-example.yaml', namespace('constraints-cpu-example')))).code, 0);
      assert.equal((await kubectl('apply', '-f', file('cpu-constraints.yaml', CPU_CONSTRAINTS))).code, 0);
      const applied = await kubectl('apply', '-f', file('cpu-constraints-pod-2.yaml', CPU_CONSTRAINTS_POD_2));
      assert.match(applied.stderr, /pods "constraints-cpu-demo-2" is forbidden: maximum cpu usage per Container is 800m, but limit is 1500m\.?\n?$/);
    });

    it('warns about existing pods when labelled, then refuses a pod under enforce and warns about a Deployment', async () => {
      assert.equal((await kubectl('apply', '-f', file('locked.yaml', namespace('locked')))).code, 0);
      assert.equal((await kubectl('apply', '-f', file('before.yaml', pod('before', 'locked')))).code, 0);
      const labelled = await kubectl('label', 'namespace', 'locked', 'pod-security.kubernetes.io/enforce=restricted', 'pod-security.kubernetes.io/warn=restricted');
      assert.equal(labelled.code, 0, labelled.stderr);
      assert.equal(labelled.stdout.trim(), 'namespace/locked labeled');
      assert.equal(
        labelled.stderr.trim(),
        'Warning: existing pods in namespace "locked" violate the new PodSecurity enforce level "restricted:latest"\n' +
          'Warning: before: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      );
      const refused = await kubectl('apply', '-f', file('locked-pod.yaml', pod('x', 'locked')));
      assert.match(refused.stderr, new RegExp(`pods "x" is forbidden: violates PodSecurity "restricted:latest": ${escapeRegExp(RESTRICTED_VIOLATIONS)}`));
      const deployed = await kubectl('apply', '-f', file('locked-deployment.yaml', deployment('web', 'locked')));
      assert.equal(deployed.code, 0, deployed.stderr);
      assert.equal(deployed.stderr.trim(), `Warning: would violate PodSecurity "restricted:latest": ${RESTRICTED_VIOLATIONS.replaceAll('container "c"', 'container "nginx"')}`);
    });

    it('refuses a pod naming a ServiceAccount that does not exist, and runs one without as default', async () => {
      const refused = await kubectl('apply', '-f', file('sa-pod.yaml', pod('x', 'default', '\n  serviceAccountName: foo')));
      assert.match(refused.stderr, /pods "x" is forbidden: error looking up service account default\/foo: serviceaccount "foo" not found/);
      assert.equal((await kubectl('apply', '-f', file('plain-pod.yaml', pod('plain', 'default')))).code, 0);
      const { stdout } = await kubectl('get', 'pod', 'plain', '-o', 'jsonpath={.spec.serviceAccountName}');
      assert.equal(stdout, 'default');
      assert.equal((await kubectl('get', 'serviceaccounts', '-n', 'quota-pod-example', '-o', 'name')).stdout.trim(), 'serviceaccount/default');
    });
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
