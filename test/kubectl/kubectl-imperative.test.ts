/**
 * kubectl's imperative commands against the simulator: `kubectl create <kind>`, `create job
 * --from`, `expose` and `create service` send protobuf bodies (typed clients), where `create -f`
 * and `apply` send JSON. Every command of the Kubernetes basics tutorial works, and an object
 * created from protobuf reads back as the same object created from its YAML.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runSimulator, type RunningSimulator } from '../../src/server/simulator-process';
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, type Kubectl } from './kubectl-harness';

const BOOTCAMP_V1 = 'gcr.io/google-samples/kubernetes-bootcamp:v1';
const BOOTCAMP_V2 = 'docker.io/jocatalin/kubernetes-bootcamp:v2';

const CRON_JOB = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "0 0 1 1 *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox:1.28
            command: [/bin/sh, -c, date; echo Hello from the Kubernetes cluster]
          restartPolicy: OnFailure
`;

interface Resource {
  metadata: { name: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: unknown[] };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: imperative commands (protobuf bodies)`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    /** Runs kubectl, failing the test with its stderr when it fails. */
    async function ok(...args: string[]): Promise<string> {
      const result = await kubectl(...args);
      assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
      return result.stdout.trim();
    }

    async function getJson(...args: string[]): Promise<Resource> {
      return JSON.parse(await ok('get', ...args, '-o', 'json')) as Resource;
    }

    /**
     * The object `args` would create, written by `--dry-run=client -o yaml` and created from that
     * file in namespace `from-yaml` (JSON on the wire), read back.
     */
    async function createdFromYaml(name: string, resource: string, ...args: string[]): Promise<Resource> {
      const end = args.includes('--') ? args.indexOf('--') : args.length;
      const object = parseYaml(await ok(...args.slice(0, end), '--dry-run=client', '-o', 'yaml', ...args.slice(end))) as { metadata: { namespace?: string } };
      delete object.metadata.namespace;
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(object));
      await ok('create', '-f', file, '-n', 'from-yaml');
      return getJson(resource, name, '-n', 'from-yaml');
    }

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kj-kubectl-imperative-'));
      simulator = await runSimulator({ nodes: 3, speed: 20, kubeconfigPath: join(dir, 'kubeconfig') });
      kubectl = kubectlFor(version.path, join(dir, 'kubeconfig'), dir);
      writeFileSync(join(dir, 'cronjob.yaml'), CRON_JOB);
    });

    after(async () => {
      await simulator?.stop();
    });

    it('create namespace, configmap, secret and deployment answer as a cluster does', async () => {
      assert.equal(await ok('create', 'namespace', 'from-yaml'), 'namespace/from-yaml created');
      assert.equal(await ok('create', 'configmap', 'settings', '--from-literal=mode=fast', '--from-literal=empty='), 'configmap/settings created');
      assert.equal(await ok('create', 'secret', 'generic', 'db-pass', '--from-literal=password=s3cr3t'), 'secret/db-pass created');
      assert.equal(await ok('create', 'deployment', 'kubernetes-bootcamp', `--image=${BOOTCAMP_V1}`), 'deployment.apps/kubernetes-bootcamp created');

      assert.equal(JSON.parse(await ok('get', 'namespace', 'from-yaml', '-o', 'json')).metadata.name, 'from-yaml');
      assert.deepEqual((await getJson('configmap', 'settings')).data, { mode: 'fast', empty: '' });
      assert.deepEqual((await getJson('secret', 'db-pass')).data, { password: Buffer.from('s3cr3t').toString('base64') });
      const deployment = await getJson('deployment', 'kubernetes-bootcamp');
      assert.equal((deployment.spec as { replicas: number }).replicas, 1);
      assert.match(await ok('rollout', 'status', 'deployment/kubernetes-bootcamp', '--timeout=60s'), /successfully rolled out/);
    });

    it('objects created from protobuf read back as the same objects created from YAML', async () => {
      // Go writes a pod template's zero creationTimestamp as null in JSON and as an empty Time in
      // protobuf; the simulator keeps what the client sent, so the null is not compared.
      const withoutNullTimestamp = (spec: Record<string, unknown> | undefined) => JSON.parse(JSON.stringify(spec ?? {}).replace(/"creationTimestamp":null,?/g, '')) as unknown;
      const sameAs = async (resource: string, name: string, ...create: string[]) => {
        const fromYaml = await createdFromYaml(name, resource, ...create);
        const fromProtobuf = await getJson(resource, name);
        assert.deepEqual(
          { labels: fromProtobuf.metadata.labels, spec: withoutNullTimestamp(fromProtobuf.spec), data: fromProtobuf.data },
          { labels: fromYaml.metadata.labels, spec: withoutNullTimestamp(fromYaml.spec), data: fromYaml.data },
          `${resource}/${name}`,
        );
      };
      await sameAs('deployment', 'kubernetes-bootcamp', 'create', 'deployment', 'kubernetes-bootcamp', `--image=${BOOTCAMP_V1}`);
      await sameAs('configmap', 'settings', 'create', 'configmap', 'settings', '--from-literal=mode=fast', '--from-literal=empty=');
      await sameAs('secret', 'db-pass', 'create', 'secret', 'generic', 'db-pass', '--from-literal=password=s3cr3t');

      await ok('create', 'deployment', 'zero', '--image=nginx', '--replicas=0');
      await sameAs('deployment', 'zero', 'create', 'deployment', 'zero', '--image=nginx', '--replicas=0');
      assert.equal((await getJson('deployment', 'zero')).spec?.replicas, 0);

      await ok('create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-Mbignum=bpi', '-wle', 'print bpi(20)');
      const job = await getJson('job', 'pi');
      const jobFromYaml = await createdFromYaml('pi', 'job', 'create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-Mbignum=bpi', '-wle', 'print bpi(20)');
      const template = (resource: Resource) => (resource.spec as { template: { spec: unknown } }).template.spec;
      assert.deepEqual(template(job), template(jobFromYaml));
    });

    it('create job --from=cronjob/hello makes a Job owned by the CronJob', async () => {
      await ok('apply', '-f', join(dir, 'cronjob.yaml'));
      assert.equal(await ok('create', 'job', '--from=cronjob/hello', 'hello-manual'), 'job.batch/hello-manual created');
      const cronJob = await getJson('cronjob', 'hello');
      const job = await getJson('job', 'hello-manual');
      assert.deepEqual(job.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cronJob.metadata.uid, controller: true }]);
      assert.equal(job.metadata.annotations?.['cronjob.kubernetes.io/instantiate'], 'manual');
      const containers = (job.spec as { template: { spec: { containers: { name: string; image: string; command: string[] }[] } } }).template.spec.containers;
      assert.deepEqual(containers.map(({ name, image, command }) => ({ name, image, command })), [{ name: 'hello', image: 'busybox:1.28', command: ['/bin/sh', '-c', 'date; echo Hello from the Kubernetes cluster'] }]);
    });

    it('expose deployment --type=NodePort and create service clusterip create their Services', async () => {
      assert.equal(await ok('expose', 'deployment', 'kubernetes-bootcamp', '--type=NodePort', '--port', '8080'), 'service/kubernetes-bootcamp exposed');
      const exposed = (await getJson('service', 'kubernetes-bootcamp')).spec as { type: string; selector: unknown; ports: { port: number; targetPort: number; protocol: string }[] };
      assert.equal(exposed.type, 'NodePort');
      assert.deepEqual(exposed.selector, { app: 'kubernetes-bootcamp' });
      assert.deepEqual(exposed.ports.map(({ port, targetPort, protocol }) => ({ port, targetPort, protocol })), [{ port: 8080, targetPort: 8080, protocol: 'TCP' }]);

      assert.equal(await ok('create', 'service', 'clusterip', 'my-cs', '--tcp=5678:8080'), 'service/my-cs created');
      const created = (await getJson('service', 'my-cs')).spec as { type: string; selector: unknown; ports: { name: string; port: number; targetPort: number }[] };
      assert.equal(created.type, 'ClusterIP');
      assert.deepEqual(created.selector, { app: 'my-cs' });
      assert.deepEqual(created.ports.map(({ name, port, targetPort }) => ({ name, port, targetPort })), [{ name: '5678-8080', port: 5678, targetPort: 8080 }]);
    });

    it('label, scale, set image and rollout undo, as the tutorial runs them', async () => {
      assert.equal(await ok('label', 'deployment', 'kubernetes-bootcamp', 'version=v1'), 'deployment.apps/kubernetes-bootcamp labeled');
      assert.equal((await getJson('deployment', 'kubernetes-bootcamp')).metadata.labels?.version, 'v1');

      assert.equal(await ok('scale', 'deployment/kubernetes-bootcamp', '--replicas=4'), 'deployment.apps/kubernetes-bootcamp scaled');
      await ok('rollout', 'status', 'deployment/kubernetes-bootcamp', '--timeout=60s');
      assert.equal((await ok('get', 'pods', '-l', 'app=kubernetes-bootcamp', '-o', 'name')).split('\n').length, 4);

      assert.equal(await ok('set', 'image', 'deployment/kubernetes-bootcamp', `kubernetes-bootcamp=${BOOTCAMP_V2}`), 'deployment.apps/kubernetes-bootcamp image updated');
      await ok('rollout', 'status', 'deployment/kubernetes-bootcamp', '--timeout=60s');
      const image = async () => ok('get', 'deployment', 'kubernetes-bootcamp', '-o', 'jsonpath={.spec.template.spec.containers[0].image}');
      assert.equal(await image(), BOOTCAMP_V2);

      assert.equal(await ok('rollout', 'undo', 'deployment/kubernetes-bootcamp'), 'deployment.apps/kubernetes-bootcamp rolled back');
      await ok('rollout', 'status', 'deployment/kubernetes-bootcamp', '--timeout=60s');
      assert.equal(await image(), BOOTCAMP_V1);
      assert.equal(await ok('get', 'deployment', 'kubernetes-bootcamp', '-o', 'jsonpath={.spec.replicas}'), '4');
    });
  });
}
