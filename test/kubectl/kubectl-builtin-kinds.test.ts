/**
 * The real kubectl against the simulator for the built-in kinds no simulated controller acts on:
 * one object of each (mostly the docs' examples) applies, `get` prints upstream's columns and
 * cells, `describe` finds everything it asks for, and invalid objects get upstream's refusals.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, type Kubectl } from './kubectl-harness';

const MANIFEST = 'test/fixtures/builtin-kinds/all-kinds.yaml';
const AGE = '\\S+';

/** Per resource: the header `kubectl get -o wide` prints, and the row of the fixture's object. */
const TABLES: [resource: string, header: string[], row: RegExp][] = [
  ['svc my-service', ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR'], new RegExp(`^my-service\\s+ClusterIP\\s+\\S+\\s+<none>\\s+80/TCP\\s+${AGE}\\s+<none>$`)],
  ['ep my-service', ['NAME', 'ENDPOINTS', 'AGE'], new RegExp(`^my-service\\s+10\\.244\\.1\\.7:9376\\s+${AGE}$`)],
  ['endpointslice my-service-abc', ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'], new RegExp(`^my-service-abc\\s+IPv4\\s+9376\\s+10\\.244\\.1\\.7\\s+${AGE}$`)],
  ['secret db-user-pass', ['NAME', 'TYPE', 'DATA', 'AGE'], new RegExp(`^db-user-pass\\s+Opaque\\s+2\\s+${AGE}$`)],
  ['sa build-robot', ['NAME', 'SECRETS', 'AGE'], new RegExp(`^build-robot\\s+0\\s+${AGE}$`)],
  [
    'pv task-pv-volume',
    ['NAME', 'CAPACITY', 'ACCESS MODES', 'RECLAIM POLICY', 'STATUS', 'CLAIM', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'REASON', 'AGE', 'VOLUMEMODE'],
    new RegExp(`^task-pv-volume\\s+10Gi\\s+RWO\\s+Retain\\s+\\S+\\s+manual\\s+<unset>\\s+${AGE}\\s+Filesystem$`),
  ],
  ['sc fast', ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE'], new RegExp(`^fast\\s+rancher\\.io/local-path\\s+Delete\\s+WaitForFirstConsumer\\s+true\\s+${AGE}$`)],
  ['quota pods-medium', ['NAME', 'REQUEST', 'LIMIT', 'AGE'], new RegExp(`^pods-medium\\s+(.*\\s+)?${AGE}$`)],
  ['limits cpu-resource-constraint', ['NAME', 'CREATED AT'], /^cpu-resource-constraint\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/],
  ['pc high-priority', ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'], new RegExp(`^high-priority\\s+1000000\\s+false\\s+${AGE}\\s+PreemptLowerPriority$`)],
  ['ingressclass nginx-example', ['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE'], new RegExp(`^nginx-example\\s+k8s\\.io/ingress-nginx\\s+<none>\\s+${AGE}$`)],
  ['ing minimal-ingress', ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'], new RegExp(`^minimal-ingress\\s+nginx-example\\s+foo\\.bar\\.com\\s+80\\s+${AGE}$`)],
  ['netpol test-network-policy', ['NAME', 'POD-SELECTOR', 'AGE'], new RegExp(`^test-network-policy\\s+role=db\\s+${AGE}$`)],
  ['role pod-reader', ['NAME', 'CREATED AT'], /^pod-reader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/],
  ['rolebinding read-pods', ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS'], new RegExp(`^read-pods\\s+Role/pod-reader\\s+${AGE}\\s+jane\\s*$`)],
  ['clusterrole secret-reader', ['NAME', 'CREATED AT'], /^secret-reader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/],
  ['clusterrolebinding read-secrets-global', ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS'], new RegExp(`^read-secrets-global\\s+ClusterRole/secret-reader\\s+${AGE}\\s+manager\\s*$`)],
  ['hpa php-apache', ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'], new RegExp(`^php-apache\\s+Deployment/php-apache\\s+cpu: <unknown>/50%\\s+1\\s+10\\s+0\\s+${AGE}$`)],
  ['pdb zk-pdb', ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'], new RegExp(`^zk-pdb\\s+2\\s+N/A\\s+0\\s+${AGE}$`)],
  ['lease my-lock', ['NAME', 'HOLDER', 'AGE'], new RegExp(`^my-lock\\s+worker-1\\s+${AGE}$`)],
];

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: the built-in kinds the simulator stores`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-builtin-'));
      simulator = await runSimulator({ nodes: 1, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('applies one object of each kind', async () => {
      const applied = await kubectl('apply', '-f', MANIFEST);
      assert.equal(applied.code, 0, applied.stderr);
      const lines = applied.stdout.trim().split('\n');
      assert.equal(lines.length, TABLES.length);
      assert.ok(lines.every((line) => line.endsWith(' created')), applied.stdout);
      assert.ok(lines.includes('networkpolicy.networking.k8s.io/test-network-policy created'));
      assert.ok(lines.includes('horizontalpodautoscaler.autoscaling/php-apache created'));
    });

    it('get -o wide prints upstream\'s columns and cells for each kind', async () => {
      for (const [resource, header, row] of TABLES) {
        const got = await kubectl('get', ...resource.split(' '), '-o', 'wide');
        assert.equal(got.code, 0, `${resource}: ${got.stderr}`);
        const [head, line] = got.stdout.trimEnd().split('\n');
        assert.deepEqual(head.trim().split(/\s{2,}/), header, resource);
        assert.match(line.trimEnd(), row, resource);
      }
      assert.deepEqual((await kubectl('get', 'svc', 'my-service')).stdout.split('\n')[0].trim().split(/\s{2,}/), ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
    });

    it('stores a Secret\'s stringData as base64 data and never returns stringData', async () => {
      const secret = JSON.parse((await kubectl('get', 'secret', 'db-user-pass', '-o', 'json')).stdout) as { data: Record<string, string>; stringData?: unknown; type: string };
      assert.equal(secret.stringData, undefined);
      assert.deepEqual(Object.keys(secret.data).sort(), ['password', 'username']);
      assert.equal(Buffer.from(secret.data.username, 'base64').toString(), 'admin');
      assert.equal(Buffer.from(secret.data.password, 'base64').toString(), 'S!B\\*d$zDsb=');
    });

    it('describe works for each kind: sizes for a Secret, endpoints for a Service', async () => {
      for (const [resource] of TABLES) {
        const described = await kubectl('describe', ...resource.split(' '));
        assert.equal(described.code, 0, `${resource}: ${described.stderr}`);
        assert.equal(described.stderr, '', resource);
        assert.match(described.stdout, /^Name:\s+\S+/m, resource);
      }
      const secret = (await kubectl('describe', 'secret', 'db-user-pass')).stdout;
      assert.match(secret, /^password:\s+12 bytes$/m);
      assert.match(secret, /^username:\s+5 bytes$/m);
      assert.doesNotMatch(secret, /admin|zDsb/);
      const service = (await kubectl('describe', 'svc', 'my-service')).stdout;
      assert.match(service, /^Endpoints:\s+10\.244\.1\.7:9376$/m);
      assert.match(service, /^Session Affinity:\s+None$/m);
      assert.match((await kubectl('describe', 'sc', 'fast')).stdout, /^VolumeBindingMode:\s+WaitForFirstConsumer$/m);
      assert.match((await kubectl('describe', 'rolebinding', 'read-pods')).stdout, /^\s+User\s+jane\s*$/m);
    });

    it('refuses invalid objects with upstream\'s messages', async () => {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: two-ports\nspec:\n  ports:\n  - port: 80\n  - port: 443\n');
      const service = await kubectl('apply', '-f', bad);
      assert.notEqual(service.code, 0);
      assert.match(service.stderr, /The Service "two-ports" is invalid: \n\* spec\.ports\[0\]\.name: Required value\n\* spec\.ports\[1\]\.name: Required value/);
      writeFileSync(bad, 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: no-verbs\nrules:\n- apiGroups: [""]\n  resources: ["pods"]\n');
      assert.match((await kubectl('apply', '-f', bad)).stderr, /The Role "no-verbs" is invalid: rules\[0\]\.verbs: Required value: verbs must contain at least one value/);
      writeFileSync(bad, 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: plain\ndata:\n  password: hunter2!\n');
      const plainData = await kubectl('apply', '-f', bad);
      assert.notEqual(plainData.code, 0);
      assert.match(plainData.stderr, /Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7/);
      assert.doesNotMatch(plainData.stderr, /hunter2/);
    });
  });
}
