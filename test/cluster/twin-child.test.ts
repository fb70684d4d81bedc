/**
 * The extension's "Twin of <context>" target starts the simulator child in twin mode
 * (src/cli/simulator-server.ts, as dist/simulator-server.js runs it): a served simulator stands
 * for the real cluster (a tainted and labelled node, a cordoned one, a Deployment), read through
 * a recording proxy. The child's ready line says what it copied; the twin serves the same nodes
 * and pods; nothing but GET reached the cluster; a refused credential is one line.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SimulatorChild, SimulatorStartError, type SimulatorLaunch } from '../../src/extension/headless/simulator-child';
import { startFaultProxy, type FaultProxy, type ServedSimulator } from './served-simulator';
import { startTwinSource, type TwinSource } from './twin-source';
import { installedKubectls, kubectlFor, succeeds, until, type Kubectl } from '../kubectl/kubectl-harness';

const kubectlBinary = installedKubectls().at(-1);

/** The child's entry from source, as the bundle runs it. */
const launch: SimulatorLaunch = { command: process.execPath, args: ['--import', 'tsx', 'src/cli/simulator-server.ts'] };

// Skipped only on a machine without kubectl: the source cluster is set up with the real client.
(kubectlBinary ? describe : describe.skip)('the simulator child as a twin of a context', function () {
  this.timeout(120_000);
  let cluster: TwinSource;
  let dir: string;
  let source: ServedSimulator;
  let proxy: FaultProxy;
  let kubectl: Kubectl;
  let proxied: string;

  before(async () => {
    cluster = await startTwinSource({ kubectlPath: kubectlBinary!.path, seed: 5, folderPrefix: 'kj-twin-child-' });
    ({ dir, source, proxy, kubectl, proxied } = cluster);
  });

  after(async () => {
    await cluster?.close();
  });

  it('copies the cluster before it serves, says what it copied, and sends the cluster GET requests only', async () => {
    const twinKubeconfig = join(dir, 'twin.kubeconfig');
    const manifest = [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'hog', namespace: 'default' } }];
    const child = await SimulatorChild.start(launch, { nodes: 3, speed: 20, kubeconfigPath: twinKubeconfig, twin: { context: 'kube-journey-simulator', kubeconfig: proxied, manifestObjects: manifest } });
    try {
      const twin = child.ready.twin;
      assert.ok(twin, 'the ready line carries the twin summary');
      assert.equal(twin.context, 'kube-journey-simulator');
      assert.equal(twin.server, proxy.url);
      assert.match(twin.header[0], /^twin of kube-journey-simulator: 4 nodes, \d+ pods, 2 workloads, \d+ namespaces.* \(read in \d+\.\ds with \d+ GET requests\)$/);
      assert.equal(twin.copied.Node, 4, 'the copy, not the --nodes 3 of a fresh simulator');
      assert.equal(twin.copied.Deployment, 1);

      const onTwin = kubectlFor(kubectlBinary!.path, twinKubeconfig, dir);
      assert.equal(await succeeds(onTwin, 'get', 'nodes', '-o', 'name'), ['node/node-1', 'node/node-2', 'node/node-3', 'node/node-4'].join('\n'));
      assert.equal(await succeeds(onTwin, 'get', 'node', 'node-1', '-o', 'jsonpath={.spec.taints[0].key}={.spec.taints[0].value}:{.spec.taints[0].effect} {.metadata.labels.dedicated}'), 'dedicated=db:NoSchedule db');
      assert.equal(await succeeds(onTwin, 'get', 'node', 'node-2', '-o', 'jsonpath={.spec.unschedulable}'), 'true');
      const sourcePods = await succeeds(kubectl, 'get', 'pods', '-l', 'app=hog', '-o', 'jsonpath={.items[*].metadata.name}');
      const twinPods = await until('the twin to serve the copied pods Running', async () => {
        const running = await succeeds(onTwin, 'get', 'pods', '-l', 'app=hog', '--field-selector', 'status.phase=Running', '-o', 'jsonpath={.items[*].metadata.name}');
        return running.split(' ').filter(Boolean).length === 2 ? running : undefined;
      });
      assert.equal(twinPods, sourcePods, 'the same pods, not new ones');

      // Applying to the twin changes the twin only.
      await succeeds(onTwin, 'scale', 'deployment/hog', '--replicas=3');
      assert.equal(await succeeds(kubectl, 'get', 'deployment', 'hog', '-o', 'jsonpath={.spec.replicas}'), '2');
    } finally {
      await child.stop();
    }
    const writes = proxy.requests.filter((request) => !request.startsWith('GET '));
    assert.deepEqual(writes, [], 'only GET requests reached the cluster');
    assert.ok(proxy.requests.some((request) => request.startsWith('GET /apis/apps/v1/namespaces/default/deployments/hog')), 'the manifest object was read');
  });

  it('says in one line why there is no twin when the credentials are refused', async () => {
    const refusing = await startFaultProxy(source);
    try {
      refusing.refuse(/^\/api\/v1\/nodes$/, 401, 'Unauthorized', 'Unauthorized');
      const kubeconfig = join(dir, 'refused.kubeconfig');
      source.writeKubeconfig(kubeconfig, refusing.url);
      const started = SimulatorChild.start(launch, { nodes: 3, speed: 1, kubeconfigPath: join(dir, 'never.kubeconfig'), twin: { context: 'kube-journey-simulator', kubeconfig } });
      await assert.rejects(started, (error: unknown) => {
        assert.ok(error instanceof SimulatorStartError, String(error));
        assert.match(error.message, /^cannot make a twin: context "kube-journey-simulator" \(https:\/\/127\.0\.0\.1:\d+\): the API server refused the credentials \(401 Unauthorized\)/);
        assert.doesNotMatch(error.message, /\n| {4}at /, 'one line, no stack');
        return true;
      });
      assert.deepEqual(refusing.requests.filter((request) => !request.startsWith('GET ')), []);
    } finally {
      await refusing.close();
    }
  });

  it('says in one line when the kubeconfig has no such context', async () => {
    await assert.rejects(SimulatorChild.start(launch, { nodes: 3, speed: 1, kubeconfigPath: join(dir, 'never.kubeconfig'), twin: { context: 'no-such-context', kubeconfig: proxied } }), (error: unknown) => {
      assert.ok(error instanceof SimulatorStartError, String(error));
      assert.match(error.message, /no-such-context/);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
  });
});
