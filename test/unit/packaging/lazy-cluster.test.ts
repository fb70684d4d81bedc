/**
 * Activation on a YAML file must not pay for @kubernetes/client-node: the extension bundle leaves
 * it in dist/cluster.js and requires that file the first time a target is used. Loads the built
 * bundle in plain Node against a fake `vscode` module, as the activation benchmark does.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadExtension, type LoadedExtension } from '../../bundle-host/load-extension';

const extensionBundle = resolve('dist/extension.js');
const clusterBundle = resolve('dist/cluster.js');
/** client-node reads this variable for its in-cluster configuration; no file of src/ names it. */
const CLIENT_NODE_MARKER = 'KUBERNETES_SERVICE_HOST';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: lazy
  cluster: { server: 'https://127.0.0.1:6443' }
users:
- name: lazy
  user: { token: not-used }
contexts:
- name: lazy-context
  context: { cluster: lazy, user: lazy, namespace: team }
current-context: lazy-context
`;

interface TargetsApi {
  targets: { pickTarget(): Promise<void> };
}

const loaded = (file: string): boolean => file in require.cache;
const clientNodeModules = (): string[] => Object.keys(require.cache).filter((file) => file.includes('@kubernetes/client-node'));

describe('lazy loading of the cluster connection', function () {
  let folder: string;
  let extension: LoadedExtension;
  /** Other suites in this process may have loaded client-node already: only what activation adds counts. */
  let clientNodeBefore: Set<string>;

  before(function () {
    execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
    folder = mkdtempSync(join(tmpdir(), 'kube-journey-lazy-'));
    writeFileSync(join(folder, 'kubeconfig'), KUBECONFIG);
    assert.ok(!loaded(extensionBundle) && !loaded(clusterBundle), 'an earlier test left the bundles loaded');
    clientNodeBefore = new Set(clientNodeModules());
    extension = loadExtension(extensionBundle, join(folder, 'storage'), { settings: { kubeconfig: join(folder, 'kubeconfig') } });
  });
  after(() => {
    extension?.deactivate();
    delete require.cache[extensionBundle];
    delete require.cache[clusterBundle];
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps client-node out of the extension bundle and in the cluster bundle', () => {
    assert.ok(readFileSync(clusterBundle, 'utf8').includes(CLIENT_NODE_MARKER), 'the marker no longer identifies client-node: choose another');
    assert.ok(!readFileSync(extensionBundle, 'utf8').includes(CLIENT_NODE_MARKER), 'dist/extension.js bundles client-node');
  });

  it('activates without loading the cluster bundle or client-node', () => {
    assert.ok(loaded(extensionBundle));
    assert.ok(!loaded(clusterBundle), 'activate() loaded dist/cluster.js');
    assert.deepEqual(clientNodeModules().filter((file) => !clientNodeBefore.has(file)), []);
  });

  it('loads the cluster bundle when a target is first used, and lists the kubeconfig contexts through it', async () => {
    await (extension.api as TargetsApi).targets.pickTarget();
    assert.ok(loaded(clusterBundle), 'listing the contexts did not load dist/cluster.js');
    const labels = extension.record.quickPicks[0]?.map((item) => item.label) ?? [];
    assert.ok(labels.some((label) => label.includes('lazy-context')), `no context in the target picker: ${labels.join(' | ')}`);
  });
});
