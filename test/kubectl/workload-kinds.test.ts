/**
 * The real kubectl against the simulator for the workload kinds beyond Deployments: the docs'
 * examples apply, `get` prints upstream's columns, `describe` finds everything it asks for, and
 * scale, delete cascades and the rollout subcommands get the answers a kube-apiserver gives.
 *
 * The StatefulSet, DaemonSet, Job and CronJob controllers are not part of these tests: where a
 * command needs what a controller writes (ControllerRevisions, status), the test writes it itself
 * through the API, as a controller would.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, until, type Kubectl } from './kubectl-harness';

const DOCS = 'test/fixtures/docs-examples';

/** The documents of a multi-document YAML file that are of `kind`. */
function documentsOfKind(file: string, kind: string): string {
  return readFileSync(file, 'utf8')
    .split(/^---$/m)
    .filter((document) => new RegExp(`^kind: ${kind}$`, 'm').test(document))
    .join('\n---\n');
}

const PVC = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: standard
  resources:
    requests:
      storage: 1Gi
`;

/**
 * A DaemonSet that states its update strategy, so `rollout status` does not depend on defaulting.
 * Its busybox sleeps: with no command busybox's shell exits at once and, as on kind, the pods
 * crash-loop and are Ready only for a moment.
 */
const DAEMON_SET = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  updateStrategy:
    type: RollingUpdate
  template:
    metadata:
      labels: {app: agent}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: agent, image: busybox:1.36, command: [sleep, '3600']}]
`;

function controllerRevision(name: string, revision: number, owner: { kind: string; name: string; uid: string }, image: string, changeCause: string): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      labels: { app: 'nginx' },
      annotations: { 'kubernetes.io/change-cause': changeCause },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }],
    },
    revision,
    data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image }] } } } },
  };
}

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: the workload kinds a real cluster runs`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-kinds-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
      writeFileSync(join(dir, 'web-statefulset.yaml'), documentsOfKind(join(DOCS, 'statefulset/web.yaml'), 'StatefulSet'));
      writeFileSync(join(dir, 'cronjob-batch-v1.yaml'), readFileSync(join(DOCS, 'cronjob/cronjob.yaml'), 'utf8').replace('batch/v1beta1', 'batch/v1'));
      writeFileSync(join(dir, 'pvc.yaml'), PVC);
      writeFileSync(join(dir, 'agent.yaml'), DAEMON_SET);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('applies the docs examples of each kind', async () => {
      const files = [join(DOCS, 'replicationcontroller/replication.yaml'), join(DOCS, 'job/job.yaml'), join(DOCS, 'daemonset/daemonset.yaml'), join(dir, 'web-statefulset.yaml'), join(dir, 'cronjob-batch-v1.yaml'), join(dir, 'pvc.yaml')];
      const outputs: string[] = [];
      for (const file of files) {
        const applied = await kubectl('apply', '-f', file);
        assert.equal(applied.code, 0, `${file}: ${applied.stderr}`);
        outputs.push(applied.stdout.trim());
      }
      assert.deepEqual(outputs, [
        'replicationcontroller/nginx created',
        'job.batch/pi created',
        'daemonset.apps/fluentd-elasticsearch created',
        'statefulset.apps/web created',
        'cronjob.batch/hello created',
        'persistentvolumeclaim/data created',
      ]);
    });

    it('get -o wide prints the upstream columns of each kind', async () => {
      const headerOf = async (...args: string[]) => (await kubectl('get', ...args, '-o', 'wide')).stdout.split('\n')[0].trim().split(/\s{2,}/);
      assert.deepEqual(await headerOf('rc'), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(await headerOf('sts'), ['NAME', 'READY', 'AGE', 'CONTAINERS', 'IMAGES']);
      assert.deepEqual(await headerOf('ds', '-n', 'kube-system'), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(await headerOf('job'), ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(await headerOf('cronjob'), ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(await headerOf('pvc'), ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE', 'VOLUMEMODE']);
      assert.deepEqual((await kubectl('get', 'sts')).stdout.split('\n')[0].trim().split(/\s{2,}/), ['NAME', 'READY', 'AGE']);

      const rc = await until('the RC to be ready', async () => {
        const { stdout } = await kubectl('get', 'rc', 'nginx', '-o', 'wide', '--no-headers');
        return /^nginx\s+3\s+3\s+3\s/.test(stdout) ? stdout : undefined;
      });
      assert.match(rc, /^nginx\s+3\s+3\s+3\s+\S+\s+nginx\s+nginx\s+app=nginx\s*$/);
      assert.match((await kubectl('get', 'sts', 'web', '-o', 'wide', '--no-headers')).stdout, /^web\s+\d\/2\s+\S+\s+nginx\s+registry\.k8s\.io\/nginx-slim:0\.7\s*$/);
      assert.match((await kubectl('get', 'cronjob', 'hello', '--no-headers')).stdout, /^hello\s+\*\/1 \* \* \* \*\s+<none>\s+\S+\s+\d+\s+\S+\s+\S+\s*$/);
      assert.match((await kubectl('get', 'job', 'pi', '--no-headers')).stdout, /^pi\s+(Running|Complete|SuccessCriteriaMet)\s+[01]\/1\s/);
      assert.match((await kubectl('get', 'pvc', 'data', '-o', 'wide', '--no-headers')).stdout, /^data\s+Pending\s+standard\s+<unset>\s+\S+\s+Filesystem\s*$/);
    });

    it('get all lists the kinds of the all category in discovery order', async () => {
      const names = (await kubectl('get', 'all', '-A', '-o', 'name')).stdout.trim().split('\n');
      const kinds = [...new Set(names.map((name) => name.slice(0, name.indexOf('/'))))];
      // Services are there from the start (default/kubernetes, kube-system/kube-dns), as on kind.
      assert.deepEqual(kinds, ['pod', 'replicationcontroller', 'service', 'daemonset.apps', 'statefulset.apps', 'cronjob.batch', 'job.batch']);
    });

    it('describe finds everything it asks for: pods by selector, events by involvedObject uid', async () => {
      const rc = (await kubectl('describe', 'rc', 'nginx')).stdout;
      assert.match(rc, /Selector:\s+app=nginx/);
      assert.match(rc, /Replicas:\s+3 current \/ 3 desired/);
      assert.match(rc, /Pods Status:\s+3 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed/);
      assert.match(rc, /Normal\s+SuccessfulCreate\s+\S+\s+replication-controller\s+Created pod: nginx-[a-z0-9]{5}/);
      for (const [kind, name, namespace, expected] of [
        ['sts', 'web', 'default', /Volume Claims:\s+Name:\s+www/],
        ['ds', 'fluentd-elasticsearch', 'kube-system', /Selector:\s+name=fluentd-elasticsearch/],
        ['job', 'pi', 'default', /Command:\s+perl\s+-Mbignum=bpi/],
        ['cronjob', 'hello', 'default', /Schedule:\s+\*\/1 \* \* \* \*/],
        ['pvc', 'data', 'default', /Status:\s+Pending/],
      ] as const) {
        const described = await kubectl('describe', kind, name, '-n', namespace);
        assert.equal(described.code, 0, `${kind}: ${described.stderr}`);
        assert.equal(described.stderr, '', kind);
        assert.match(described.stdout, expected, kind);
      }
    });

    it('scale rc and sts go through /scale, whose status.selector is the pod selector', async () => {
      assert.equal((await kubectl('scale', 'rc/nginx', '--replicas=2')).stdout.trim(), 'replicationcontroller/nginx scaled');
      assert.equal((await kubectl('scale', 'sts/web', '--replicas=3')).stdout.trim(), 'statefulset.apps/web scaled');
      const rcScale = JSON.parse((await kubectl('get', '--raw', '/api/v1/namespaces/default/replicationcontrollers/nginx/scale')).stdout) as { kind: string; spec: { replicas: number }; status: { selector: string } };
      assert.equal(rcScale.kind, 'Scale');
      assert.equal(rcScale.spec.replicas, 2);
      assert.equal(rcScale.status.selector, 'app=nginx');
      const stsScale = JSON.parse((await kubectl('get', '--raw', '/apis/apps/v1/namespaces/default/statefulsets/web/scale')).stdout) as { spec: { replicas: number }; status: { selector: string } };
      assert.deepEqual([stsScale.spec.replicas, stsScale.status.selector], [3, 'app=nginx']);
      assert.match((await kubectl('get', 'rc', 'nginx', '--subresource=scale')).stdout, /^NAME\s+DESIRED\s+AVAILABLE\s+AGE\nnginx\s+2\s+\d\s+\S+\n$/);
      await until('the RC to have two pods', async () => ((await kubectl('get', 'pods', '-l', 'app=nginx', '-o', 'name')).stdout.trim().split('\n').filter((line) => line.startsWith('pod/nginx-')).length === 2 ? true : undefined));
      assert.match((await kubectl('describe', 'rc', 'nginx')).stdout, /SuccessfulDelete\s+\S+\s+replication-controller\s+Deleted pod: nginx-/);
    });

    it('rollout history, undo and restart of a StatefulSet read and write what kube-apiserver serves', async () => {
      const uid = (await kubectl('get', 'sts', 'web', '-o', 'jsonpath={.metadata.uid}')).stdout;
      const owner = { kind: 'StatefulSet', name: 'web', uid };
      // Two documents rather than a v1 List: kubectl validates a List against OpenAPI v2, which the simulator does not serve.
      const revisions = [controllerRevision('web-kj-first', 21, owner, 'registry.k8s.io/nginx-slim:0.7', 'kj first'), controllerRevision('web-kj-second', 22, owner, 'registry.k8s.io/nginx-slim:0.8', 'kj second')];
      writeFileSync(join(dir, 'revisions.yaml'), revisions.map((revision) => stringifyYaml(revision)).join('---\n'));
      const applied = await kubectl('apply', '-f', join(dir, 'revisions.yaml'));
      assert.equal(applied.code, 0, applied.stderr);
      assert.match((await kubectl('get', 'controllerrevision', 'web-kj-second', '--no-headers')).stdout, /^web-kj-second\s+statefulset\.apps\/web\s+22\s+\S+\s*$/);
      const history = (await kubectl('rollout', 'history', 'sts/web')).stdout;
      assert.match(history, /REVISION\s+CHANGE-CAUSE/);
      assert.match(history, /21\s+kj first\n22\s+kj second/);
      assert.match((await kubectl('rollout', 'history', 'sts/web', '--revision=22')).stdout, /Image:\s+registry\.k8s\.io\/nginx-slim:0\.8/);
      assert.equal((await kubectl('rollout', 'undo', 'sts/web', '--to-revision=22')).stdout.trim(), 'statefulset.apps/web rolled back');
      assert.equal((await kubectl('get', 'sts', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}')).stdout, 'registry.k8s.io/nginx-slim:0.8');
      assert.equal((await kubectl('rollout', 'restart', 'sts/web')).stdout.trim(), 'statefulset.apps/web restarted');
      assert.match((await kubectl('get', 'sts', 'web', '-o', 'jsonpath={.spec.template.metadata.annotations}')).stdout, /"kubectl\.kubernetes\.io\/restartedAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/);
    });

    it('rollout status of a DaemonSet follows what its controller reports through /status', async () => {
      assert.equal((await kubectl('apply', '-f', join(dir, 'agent.yaml'))).stdout.trim(), 'daemonset.apps/agent created');
      const generation = Number((await kubectl('get', 'ds', 'agent', '-o', 'jsonpath={.metadata.generation}')).stdout);
      const status = { status: { observedGeneration: generation, desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3, numberMisscheduled: 0 } };
      const patched = await kubectl('patch', 'ds', 'agent', '--subresource=status', '--type=merge', '-p', JSON.stringify(status));
      assert.equal(patched.code, 0, patched.stderr);
      const rollout = await kubectl('rollout', 'status', 'ds/agent', '--timeout=30s');
      assert.equal(rollout.code, 0, rollout.stderr);
      assert.match(rollout.stdout, /daemon set "agent" successfully rolled out/);
      // The simulator's own DaemonSet controller also writes this status: wait for its pods to be ready too.
      await until('3 ready daemon pods in kubectl get ds', async () => (/^agent\s+3\s+3\s+3\s+3\s+3\s+kubernetes\.io\/os=linux\s/.test((await kubectl('get', 'ds', 'agent', '--no-headers')).stdout) ? true : undefined));
      assert.equal((await kubectl('rollout', 'restart', 'ds/agent')).stdout.trim(), 'daemonset.apps/agent restarted');
    });

    it('rollout status of a StatefulSet waits for the update revision its controller reports', async () => {
      const statefulSet = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, updateStrategy: { type: 'RollingUpdate' }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16' }] } } } };
      writeFileSync(join(dir, 'db.yaml'), stringifyYaml(statefulSet));
      assert.equal((await kubectl('apply', '-f', join(dir, 'db.yaml'))).stdout.trim(), 'statefulset.apps/db created');
      const generation = Number((await kubectl('get', 'sts', 'db', '-o', 'jsonpath={.metadata.generation}')).stdout);
      const status = { status: { observedGeneration: generation, replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, currentRevision: 'db-5c9f8b7d6', updateRevision: 'db-5c9f8b7d6' } };
      assert.equal((await kubectl('patch', 'sts', 'db', '--subresource=status', '--type=merge', '-p', JSON.stringify(status))).code, 0);
      const rollout = await kubectl('rollout', 'status', 'sts/db', '--timeout=30s');
      assert.equal(rollout.code, 0, rollout.stderr);
      assert.match(rollout.stdout, /statefulset rolling update complete 2 pods at revision db-\S+\.\.\./);
    });

    it('delete rc honours --cascade=orphan, foreground and background', async () => {
      const nginxPods = async () => (await kubectl('get', 'pods', '-l', 'app=nginx', '-o', 'name')).stdout.trim().split('\n').filter((line) => line.startsWith('pod/nginx-'));
      assert.equal((await kubectl('delete', 'rc', 'nginx', '--cascade=orphan')).stdout.trim(), 'replicationcontroller "nginx" deleted');
      const orphans = await nginxPods();
      assert.equal(orphans.length, 2);
      assert.equal((await kubectl('get', ...orphans, '-o', 'jsonpath={.items[*].metadata.ownerReferences}')).stdout, '');
      assert.equal((await kubectl('delete', ...orphans, '--wait=true')).code, 0);

      for (const cascade of ['foreground', 'background']) {
        assert.equal((await kubectl('apply', '-f', join(DOCS, 'replicationcontroller/replication.yaml'))).code, 0);
        await until('three pods', async () => ((await nginxPods()).length === 3 ? true : undefined));
        assert.equal((await kubectl('delete', 'rc', 'nginx', `--cascade=${cascade}`)).stdout.trim(), 'replicationcontroller "nginx" deleted');
        await until(`the pods to go with a ${cascade} delete`, async () => ((await nginxPods()).length === 0 ? true : undefined));
      }
      assert.equal((await kubectl('get', 'rc', '-o', 'name')).stdout.trim(), '');
    });
  });
}
