/**
 * The real kubectl (the newest installed that applies without OpenAPI v2) sending manifests the
 * API server cannot decode: a value of the wrong type, an unknown field under each
 * `--validate` mode, and server-side apply. The expected texts are kube-apiserver's (see
 * test/unit/schema/decoding.test.ts for where each comes from) as kubectl prints them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, type Kubectl } from './kubectl-harness';

function deployment(name: string, podSpecExtra: string, specExtra = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1${specExtra}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:${podSpecExtra}
      containers:
      - name: web
        image: nginx
`;
}

/** requiredDuringSchedulingIgnoredDuringExecution written as a list, as people often do. */
const AFFINITY_AS_LIST = `
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - nodeSelectorTerms:
            - matchExpressions:
              - {key: disktype, operator: In, values: [ssd]}`;

const newest = applyCapableVersionsUnderTest(installedKubectls()).at(-1);
// Like the other kubectl suites, this runs only where a kubectl that can apply is installed.
if (newest) {
  describe(`kubectl 1.${newest.minor}: decoding errors from the simulator`, function () {
    this.timeout(120_000);
    let simulator: RunningSimulator;
    let dir: string;
    let kubectl: Kubectl;
    const file = (name: string, text: string): string => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-decoding-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(newest.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('apply of a list where an object belongs prints the decoder\'s error', async () => {
      const path = file('affinity.yaml', deployment('affinity', AFFINITY_AS_LIST));
      const result = await kubectl('apply', '-f', path);
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr.trim(),
        `Error from server (BadRequest): error when creating "${path}": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal array into Go struct field NodeAffinity.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector`,
      );
    });

    it('an unknown field fails with --validate=strict (the default), warns with --validate=warn', async () => {
      const path = file('typo.yaml', deployment('typo', '', '\n  replica: 2'));
      const strict = await kubectl('apply', '-f', path);
      assert.equal(strict.code, 1);
      assert.equal(
        strict.stderr.trim(),
        `Error from server (BadRequest): error when creating "${path}": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"`,
      );
      const warn = await kubectl('apply', '--validate=warn', '-f', path);
      assert.equal(warn.code, 0, warn.stderr);
      assert.equal(warn.stderr.trim(), 'Warning: unknown field "spec.replica"');
      assert.equal(warn.stdout.trim(), 'deployment.apps/typo created');
      const ignore = await kubectl('apply', '--validate=false', '-f', file('typo-2.yaml', deployment('typo-2', '', '\n  replica: 2')));
      assert.equal(ignore.code, 0, ignore.stderr);
      assert.equal(ignore.stderr.trim(), '');
    });

    it('server-side apply refuses a wrong type through structured-merge-diff', async () => {
      const path = file('ssa.yaml', deployment('ssa', '').replace('replicas: 1', 'replicas: "three"'));
      const result = await kubectl('apply', '--server-side', '-f', path);
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr.trim(),
        'Error from server: failed to create typed patch object (default/ssa; apps/v1, Kind=Deployment): .spec.replicas: expected numeric (int or float), got string',
      );
    });
  
    it('apply of a kind: List applies each item (validated against the OpenAPI v2 document)', async () => {
      const list = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: listed
  data: {a: b}
- ${deployment('listed', '').trimEnd().split('\n').join('\n  ')}
`;
      const result = await kubectl('apply', '-f', file('list.yaml', list));
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), 'configmap/listed created\ndeployment.apps/listed created');
    });
  });
}
