/**
 * The real kubectl against three API pieces its imperative commands meet: `kubectl autoscale`
 * (an autoscaling/v1 HorizontalPodAutoscaler, sent as protobuf, read back as v2), `kubectl create
 * token` (the serviceaccounts/token subresource) and pods naming a user-created PriorityClass.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, succeeds, type Kubectl } from './kubectl-harness';

const PRIORITY_CLASSES = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high-priority
value: 1000000
preemptionPolicy: Never
description: "kubernetes/website pod-priority-preemption, with preemption off"
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: everyday
value: 100
globalDefault: true
`;

const pod = (name: string, priorityClassName?: string): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:${priorityClassName ? `\n  priorityClassName: ${priorityClassName}` : ''}
  containers:
  - name: c
    image: nginx
`;

function jwtClaims(token: string): Record<string, unknown> {
  const parts = token.split('.');
  assert.equal(parts.length, 3, 'a JWT has three parts');
  return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: autoscale, create token, PriorityClasses`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    const ok = (...args: string[]): Promise<string> => succeeds(kubectl, ...args);

    async function fails(...args: string[]): Promise<string> {
      const result = await kubectl(...args);
      assert.notEqual(result.code, 0, `kubectl ${args.join(' ')} should fail: ${result.stdout}`);
      return result.stderr.trim();
    }

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-autoscale-token-'));
      simulator = await runSimulator({ nodes: 1, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('autoscale creates an autoscaling/v1 HPA that reads back in both versions', async () => {
      await ok('create', 'deployment', 'web', '--image=nginx');
      assert.equal(await ok('autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=80'), 'horizontalpodautoscaler.autoscaling/web autoscaled');
      const v2 = JSON.parse(await ok('get', 'hpa', 'web', '-o', 'json')) as { apiVersion: string; spec: Record<string, unknown> };
      assert.equal(v2.apiVersion, 'autoscaling/v2');
      assert.deepEqual(v2.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
      assert.deepEqual([v2.spec.minReplicas, v2.spec.maxReplicas], [2, 5]);
      const v1 = JSON.parse(await ok('get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json')) as { apiVersion: string; spec: Record<string, unknown> };
      assert.equal(v1.apiVersion, 'autoscaling/v1');
      assert.equal(v1.spec.targetCPUUtilizationPercentage, 80);
      assert.equal(v1.spec.metrics, undefined);
      assert.match(await ok('api-versions'), /^autoscaling\/v1$/m);
      assert.match(await ok('get', 'hpa', 'web'), /^web\s+Deployment\/web\s+cpu: <unknown>\/80%\s+2\s+5\s/m);
    });

    it('a v1 patch changes the CPU target the v2 object holds', async () => {
      await ok('patch', 'horizontalpodautoscalers.v1.autoscaling', 'web', '--type=merge', '-p', '{"spec":{"targetCPUUtilizationPercentage":60}}');
      const v2 = JSON.parse(await ok('get', 'hpa', 'web', '-o', 'json')) as { spec: { metrics: { resource: { target: { averageUtilization: number } } }[] } };
      assert.equal(v2.spec.metrics[0].resource.target.averageUtilization, 60);
    });

    it('create token returns a JWT for the ServiceAccount, and refuses a missing one as a cluster does', async () => {
      const token = await ok('create', 'token', 'default', '--duration=2h');
      const claims = jwtClaims(token);
      assert.equal(claims.sub, 'system:serviceaccount:default:default');
      assert.equal(Number(claims.exp) - Number(claims.iat), 7200);
      const hourLong = jwtClaims(await ok('create', 'token', 'default'));
      assert.equal(Number(hourLong.exp) - Number(hourLong.iat), 3600);
      assert.equal(await fails('create', 'token', 'nobody'), 'error: failed to create token: serviceaccounts "nobody" not found');
      assert.equal(
        await fails('create', 'token', 'default', '--duration=5m'),
        'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes',
      );
    });

    it('a pod naming a created PriorityClass gets its value, and the globalDefault one applies to pods naming none', async () => {
      writeFileSync(join(dir, 'classes.yaml'), PRIORITY_CLASSES);
      await ok('apply', '-f', join(dir, 'classes.yaml'));
      writeFileSync(join(dir, 'important.yaml'), pod('important', 'high-priority'));
      await ok('apply', '-f', join(dir, 'important.yaml'));
      assert.equal(await ok('get', 'pod', 'important', '-o', 'jsonpath={.spec.priority} {.spec.preemptionPolicy}'), '1000000 Never');
      writeFileSync(join(dir, 'plain.yaml'), pod('plain'));
      await ok('apply', '-f', join(dir, 'plain.yaml'));
      assert.equal(await ok('get', 'pod', 'plain', '-o', 'jsonpath={.spec.priorityClassName} {.spec.priority}'), 'everyday 100');
      writeFileSync(join(dir, 'missing.yaml'), pod('missing', 'platinum'));
      assert.match(await fails('apply', '-f', join(dir, 'missing.yaml')), /pods "missing" is forbidden: no PriorityClass with name platinum was found/);
    });

    it('create token binds a token to a pod of the ServiceAccount, and refuses a missing pod', async () => {
      const claims = jwtClaims(await ok('create', 'token', 'default', '--bound-object-kind=Pod', '--bound-object-name=important'));
      const uid = await ok('get', 'pod', 'important', '-o', 'jsonpath={.metadata.uid}');
      assert.deepEqual((claims['kubernetes.io'] as { pod?: unknown }).pod, { name: 'important', uid });
      assert.equal(await fails('create', 'token', 'default', '--bound-object-kind=Pod', '--bound-object-name=nope'), 'error: failed to create token: pods "nope" not found');
    });
  });
}
