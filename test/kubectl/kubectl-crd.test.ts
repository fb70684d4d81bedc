/**
 * The real kubectl against the simulator with a CustomResourceDefinition: the docs' CronTab CRD
 * becomes Established, its kind is discovered and served (printer columns, schema validation with
 * upstream's messages, pruning, status and scale subresources, patches), and deleting the CRD
 * deletes its custom resources.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const CRD = 'test/fixtures/crd/crontab-crd.yaml';
const CRONTAB = 'test/fixtures/crd/my-crontab.yaml';
const CRD_NAME = 'crontabs.stable.example.com';

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: CustomResourceDefinitions and custom resources`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-crd-'));
      simulator = await runSimulator({ nodes: 1, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('refuses a custom resource before its CRD is installed, as kubectl words it', async () => {
      const refused = await kubectl('apply', '-f', CRONTAB);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /no matches for kind "CronTab" in version "stable\.example\.com\/v1"/);
      assert.match(refused.stderr, /ensure CRDs are installed first/);
    });

    it('applies the CRD, which becomes Established with its names accepted', async () => {
      const applied = await kubectl('apply', '-f', CRD);
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal(applied.stdout.trim(), `customresourcedefinition.apiextensions.k8s.io/${CRD_NAME} created`);
      const waited = await kubectl('wait', '--for', 'condition=established', `crd/${CRD_NAME}`, '--timeout=30s');
      assert.equal(waited.code, 0, waited.stderr);
      const crd = JSON.parse((await kubectl('get', 'crd', CRD_NAME, '-o', 'json')).stdout) as { spec: { names: { listKind: string } }; status: { conditions: { type: string; status: string; reason: string }[]; acceptedNames: { kind: string; shortNames: string[] }; storedVersions: string[] } };
      assert.deepEqual(crd.status.conditions.map((c) => `${c.type}=${c.status} ${c.reason}`), ['NamesAccepted=True NoConflicts', 'Established=True InitialNamesAccepted']);
      assert.deepEqual(crd.status.acceptedNames.shortNames, ['ct']);
      assert.deepEqual(crd.status.storedVersions, ['v1']);
      assert.equal(crd.spec.names.listKind, 'CronTabList');
      assert.match((await kubectl('api-resources', '--api-group=stable.example.com')).stdout, /^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab$/m);
    });

    it('creates the custom resource and prints its additionalPrinterColumns', async () => {
      const applied = await until('the CronTab kind to be served', async () => {
        const result = await kubectl('apply', '-f', CRONTAB);
        return result.code === 0 ? result : undefined;
      });
      assert.equal(applied.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object created');
      const got = await kubectl('get', 'crontabs');
      assert.equal(got.code, 0, got.stderr);
      const [head, row] = got.stdout.trimEnd().split('\n');
      assert.deepEqual(head.trim().split(/\s{2,}/), ['NAME', 'SPEC', 'REPLICAS', 'AGE']);
      assert.match(row, /^my-new-cron-object\s+\* \* \* \* \*\/5\s+1\s+\S+$/);
      const short = await kubectl('get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.image} {.metadata.generation}');
      assert.equal(short.stdout, 'my-awesome-cron-image 1');
      const explained = await kubectl('explain', 'crontab.spec');
      assert.equal(explained.code, 0, explained.stderr);
      assert.match(explained.stdout, /^KIND:\s+CronTab$/m);
      assert.match(explained.stdout, /^ {2}replicas\t<integer>$/m);
    });

    it('refuses values against the schema with upstream\'s messages, and unknown fields under strict validation', async () => {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: bad\nspec:\n  cronSpec: often\n  replicas: "two"\n');
      const refused = await kubectl('apply', '-f', bad);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /The CronTab "bad" is invalid: /);
      assert.match(refused.stderr, /spec\.replicas: Invalid value: "string": spec\.replicas in body must be of type integer: "string"/);
      assert.match(refused.stderr, /spec\.cronSpec: Invalid value: "often": spec\.cronSpec in body should match/);
      writeFileSync(bad, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: extra\nspec:\n  replicas: 2\n  colour: blue\n');
      const strict = await kubectl('apply', '-f', bad);
      assert.notEqual(strict.code, 0);
      assert.match(strict.stderr, /unknown field "spec\.colour"/);
      const pruned = await kubectl('apply', '--validate=false', '-f', bad);
      assert.equal(pruned.code, 0, pruned.stderr);
      const stored = JSON.parse((await kubectl('get', 'ct', 'extra', '-o', 'json')).stdout) as { spec: Record<string, unknown> };
      assert.deepEqual(stored.spec, { replicas: 2 });
    });

    it('patches with merge and JSON patches, refuses a strategic merge patch, and serves scale', async () => {
      const merged = await kubectl('patch', 'ct', 'my-new-cron-object', '--type=merge', '-p', '{"spec":{"replicas":4}}');
      assert.equal(merged.code, 0, merged.stderr);
      const json = await kubectl('patch', 'ct', 'my-new-cron-object', '--type=json', '-p', '[{"op":"replace","path":"/spec/image","value":"other"}]');
      assert.equal(json.code, 0, json.stderr);
      const strategic = await kubectl('patch', 'ct', 'my-new-cron-object', '--type=strategic', '-p', '{"spec":{"replicas":5}}');
      assert.notEqual(strategic.code, 0);
      assert.match(strategic.stderr, /the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/apply-patch\+yaml/);
      const scaled = await kubectl('scale', 'ct/my-new-cron-object', '--replicas=3');
      assert.equal(scaled.code, 0, scaled.stderr);
      assert.equal((await kubectl('get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas} {.spec.image}')).stdout, '3 other');
      const tooMany = await kubectl('scale', 'ct/my-new-cron-object', '--replicas=11');
      assert.notEqual(tooMany.code, 0);
      assert.match(tooMany.stderr, /spec\.replicas in body should be less than or equal to 10/);
    });

    it('applies server-side', async () => {
      const applied = await kubectl('apply', '--server-side', '-f', CRONTAB);
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal((await kubectl('get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}')).stdout, '1');
    });

    it('serves the docs\' Shirt CRD: its printer columns and selectable fields', async () => {
      assert.equal((await kubectl('apply', '-f', 'test/corpus/docs/customresourcedefinition/shirt-resource-definition.yaml')).code, 0);
      assert.equal((await kubectl('wait', '--for', 'condition=established', 'crd/shirts.stable.example.com', '--timeout=30s')).code, 0);
      const created = await until('the Shirt kind to be served', async () => {
        const result = await kubectl('apply', '-f', 'test/corpus/docs/customresourcedefinition/shirt-resources.yaml');
        return result.code === 0 ? result : undefined;
      });
      assert.equal(created.stdout.trim().split('\n').length, 3);
      const blue = await kubectl('get', 'shirts', '--field-selector', 'spec.color=blue');
      assert.equal(blue.code, 0, blue.stderr);
      const lines = blue.stdout.trimEnd().split('\n');
      assert.deepEqual(lines[0].trim().split(/\s{2,}/), ['NAME', 'COLOR', 'SIZE']);
      assert.deepEqual(lines.slice(1).map((line) => line.trim().split(/\s+/)), [['example1', 'blue', 'S'], ['example2', 'blue', 'M']]);
      const unknown = await kubectl('get', 'shirts', '--field-selector', 'spec.fabric=silk');
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stderr, /"spec\.fabric" is not a known field selector: only "metadata\.name", "metadata\.namespace"/);
    });

    it('serves a cluster-scoped kind in each of its served versions', async () => {
      const schema = '      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec:\n              type: object\n              x-kubernetes-preserve-unknown-fields: true\n';
      const crd = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.com\nspec:\n  group: example.com\n  scope: Cluster\n  names:\n    plural: gadgets\n    kind: Gadget\n  versions:\n    - name: v1\n      served: true\n      storage: true\n${schema}    - name: v1beta1\n      served: true\n      storage: false\n${schema}`;
      writeFileSync(join(dir, 'gadget-crd.yaml'), crd);
      assert.equal((await kubectl('apply', '-f', join(dir, 'gadget-crd.yaml'))).code, 0);
      assert.equal((await kubectl('wait', '--for', 'condition=established', 'crd/gadgets.example.com', '--timeout=30s')).code, 0);
      writeFileSync(join(dir, 'gadget.yaml'), 'apiVersion: example.com/v1beta1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  anything: [1, 2]\n');
      const created = await until('the Gadget kind to be served', async () => {
        const result = await kubectl('apply', '-f', join(dir, 'gadget.yaml'));
        return result.code === 0 ? result : undefined;
      });
      assert.equal(created.stdout.trim(), 'gadget.example.com/g created');
      assert.equal((await kubectl('get', 'gadgets.v1beta1.example.com', 'g', '-o', 'jsonpath={.apiVersion} {.spec.anything}')).stdout, 'example.com/v1beta1 [1,2]');
      assert.equal((await kubectl('get', 'gadgets.v1.example.com', '-o', 'jsonpath={.items[0].apiVersion} {.items[0].metadata.namespace}')).stdout, 'example.com/v1 ');
      const groups = JSON.parse((await kubectl('get', '--raw', '/apis/example.com')).stdout) as { versions: { version: string }[]; preferredVersion: { version: string } };
      assert.deepEqual([groups.versions.map((v) => v.version), groups.preferredVersion.version], [['v1', 'v1beta1'], 'v1']);
    });

    it('deleting a namespace deletes the custom resources in it', async () => {
      assert.equal((await kubectl('create', 'namespace', 'shop')).code, 0);
      writeFileSync(join(dir, 'shirt.yaml'), 'apiVersion: stable.example.com/v1\nkind: Shirt\nmetadata:\n  name: red\n  namespace: shop\nspec:\n  color: red\n');
      assert.equal((await kubectl('apply', '-f', join(dir, 'shirt.yaml'))).code, 0);
      assert.equal((await kubectl('delete', 'namespace', 'shop')).code, 0);
      assert.equal((await kubectl('get', 'shirts', '-A', '-o', 'name')).stdout.trim().split('\n').sort().join(' '), 'shirt.stable.example.com/example1 shirt.stable.example.com/example2 shirt.stable.example.com/example3');
    });

    it('deleting the CRD deletes its custom resources and stops serving the kind', async () => {
      const deleted = await kubectl('delete', 'crd', CRD_NAME);
      assert.equal(deleted.code, 0, deleted.stderr);
      const gone = await kubectl('get', 'crontabs.stable.example.com');
      assert.notEqual(gone.code, 0);
      assert.match(gone.stderr, /the server doesn't have a resource type "crontabs"/);
      const again = await kubectl('apply', '-f', CRD);
      assert.equal(again.code, 0, again.stderr);
      assert.equal((await kubectl('wait', '--for', 'condition=established', `crd/${CRD_NAME}`, '--timeout=30s')).code, 0);
      const listed = await until('the CronTab kind to be served again', async () => {
        const result = await kubectl('get', 'crontabs', '-o', 'name');
        return result.code === 0 ? result : undefined;
      });
      assert.equal(listed.stdout.trim(), '');
    });
  });
}
