/**
 * The real kubectl against the simulator's storage, kind-like: the default StorageClass, claims
 * bound to static volumes, and the docs' web StatefulSet whose claims the local-path provisioner
 * fills on the nodes its pods land on. Only the columns and events this part owns are asserted
 * (the StorageClass and PersistentVolume printers belong to the kinds' own suite).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const CORPUS = 'test/corpus/docs';

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: storage as on kind`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-storage-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
      // The tutorial's three files as one, applied in its order.
      const files = ['pv-volume.yaml', 'pv-claim.yaml', 'pv-pod.yaml'].map((file) => readFileSync(join(CORPUS, 'pods/storage', file), 'utf8'));
      writeFileSync(join(dir, 'task-pv.yaml'), files.join('\n---\n'));
    });

    after(async () => {
      await simulator?.stop();
    });

    it('has the default class standard from the start', async () => {
      const { stdout, code } = await kubectl('get', 'sc', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.provisioner} {.volumeBindingMode} {.reclaimPolicy} {.metadata.annotations.storageclass\\.kubernetes\\.io/is-default-class}{"\\n"}{end}');
      assert.equal(code, 0);
      assert.equal(stdout.trim(), 'standard rancher.io/local-path WaitForFirstConsumer Delete true');
      assert.match((await kubectl('get', 'sc')).stdout, /^standard\b/m);
    });

    it('binds the docs task-pv-claim to task-pv-volume, and the pod using it runs', async () => {
      const applied = await kubectl('apply', '-f', join(dir, 'task-pv.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
      const row = await until('task-pv-claim to be Bound', async () => {
        const { stdout } = await kubectl('get', 'pvc', 'task-pv-claim', '--no-headers');
        return /\bBound\b/.test(stdout) ? stdout : undefined;
      });
      assert.match(row, /^task-pv-claim\s+Bound\s+task-pv-volume\s+10Gi\s+RWO\s+manual\s/);
      await until('task-pv-pod to run', async () => {
        const { stdout } = await kubectl('get', 'pod', 'task-pv-pod', '--no-headers');
        return /\bRunning\b/.test(stdout) ? stdout : undefined;
      });
    });

    it("the web StatefulSet's claims are provisioned by local-path and Bound, with the events kind shows", async () => {
      const applied = await kubectl('apply', '-f', join(CORPUS, 'application/web/web.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
      await until('web to be 2/2 ready', async () => {
        const { stdout } = await kubectl('get', 'sts', 'web', '--no-headers');
        return /^web\s+2\/2\s/.test(stdout) ? stdout : undefined;
      }, 60_000);
      const claims = (await kubectl('get', 'pvc', '-l', 'app=nginx', '--no-headers')).stdout.trim().split('\n');
      assert.equal(claims.length, 2);
      for (const [ordinal, row] of claims.entries()) {
        assert.match(row, new RegExp(`^www-web-${ordinal}\\s+Bound\\s+pvc-[0-9a-f-]{36}\\s+1Gi\\s+RWO\\s+standard\\s`));
      }
      const describe = (await kubectl('describe', 'pvc', 'www-web-0')).stdout;
      assert.match(describe, /StorageClass:\s+standard/);
      assert.match(describe, /Status:\s+Bound/);
      assert.match(describe, /volume\.kubernetes\.io\/selected-node: node-\d/);
      assert.match(describe, /Normal\s+WaitForFirstConsumer\s+.*persistentvolume-controller\s+waiting for first consumer to be created before binding/);
      assert.match(describe, /Normal\s+ExternalProvisioning\s+.*persistentvolume-controller\s+Waiting for a volume to be created either by the external provisioner 'rancher\.io\/local-path'/);
      assert.match(describe, /Normal\s+Provisioning\s+.*rancher\.io\/local-path_local-path-provisioner-\S+\s+External provisioner is provisioning volume for claim "default\/www-web-0"/);
      assert.match(describe, /Normal\s+ProvisioningSucceeded\s+.*Successfully provisioned volume pvc-[0-9a-f-]{36}/);
    });

    it('a claim naming a class that does not exist stays Pending with ProvisioningFailed', async () => {
      writeFileSync(join(dir, 'x.yaml'), 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: nowhere}\nspec: {storageClassName: x, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n');
      assert.equal((await kubectl('apply', '-f', join(dir, 'x.yaml'))).code, 0);
      const describe = await until('the ProvisioningFailed event', async () => {
        const { stdout } = await kubectl('describe', 'pvc', 'nowhere');
        return /ProvisioningFailed/.test(stdout) ? stdout : undefined;
      });
      assert.match(describe, /Status:\s+Pending/);
      assert.match(describe, /Warning\s+ProvisioningFailed\s+.*persistentvolume-controller\s+storageclass\.storage\.k8s\.io "x" not found/);
    });
  });
}
