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
import { applyCapableVersionsUnderTest, installedKubectls, kubectlFor, succeeds, type Kubectl } from './kubectl-harness';

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
            env:
            - {name: MODE, valueFrom: {configMapKeyRef: {name: settings, key: mode}}}
            - {name: PASSWORD, valueFrom: {secretKeyRef: {name: db-pass, key: password, optional: true}}}
            readinessProbe: {exec: {command: [cat, /tmp/ready]}, periodSeconds: 3}
            volumeMounts: [{name: config, mountPath: /etc/config}]
          volumes:
          - {name: config, configMap: {name: settings}}
          restartPolicy: OnFailure
`;

interface Resource {
  metadata: { name: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: unknown[]; [field: string]: unknown };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

for (const version of applyCapableVersionsUnderTest(installedKubectls())) {
  describe(`kubectl 1.${version.minor}: imperative commands (protobuf bodies)`, function () {
    let simulator: RunningSimulator;
    let kubectl: Kubectl;
    let dir: string;

    const ok = (...args: string[]): Promise<string> => succeeds(kubectl, ...args);

    async function getJson(...args: string[]): Promise<Resource> {
      return JSON.parse(await ok('get', ...args, '-o', 'json')) as Resource;
    }

    /**
     * The object `args` creates, and the same object created from what `--dry-run=client -o yaml`
     * writes for it (JSON on the wire), renamed `<name>-yaml`: both read back.
     */
    async function createdBothWays(resource: string, name: string, ...args: string[]): Promise<[Resource, Resource]> {
      const end = args.includes('--') ? args.indexOf('--') : args.length;
      const object = parseYaml(await ok(...args.slice(0, end), '--dry-run=client', '-o', 'yaml', ...args.slice(end))) as Resource;
      object.metadata.name = `${name}-yaml`;
      const file = join(dir, `${resource}-${name}.json`);
      writeFileSync(file, JSON.stringify(object));
      await ok(...args);
      await ok('create', '-f', file);
      return [await getJson(resource, name), await getJson(resource, `${name}-yaml`)];
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
      assert.equal(await ok('create', 'namespace', 'tutorial'), 'namespace/tutorial created');
      assert.equal(await ok('create', 'configmap', 'settings', '--from-literal=mode=fast', '--from-literal=empty='), 'configmap/settings created');
      assert.equal(await ok('create', 'secret', 'generic', 'db-pass', '--from-literal=password=s3cr3t'), 'secret/db-pass created');
      assert.equal(await ok('create', 'deployment', 'kubernetes-bootcamp', `--image=${BOOTCAMP_V1}`), 'deployment.apps/kubernetes-bootcamp created');

      assert.equal(JSON.parse(await ok('get', 'namespace', 'tutorial', '-o', 'json')).metadata.name, 'tutorial');
      assert.deepEqual((await getJson('configmap', 'settings')).data, { mode: 'fast', empty: '' });
      assert.deepEqual((await getJson('secret', 'db-pass')).data, { password: Buffer.from('s3cr3t').toString('base64') });
      const deployment = await getJson('deployment', 'kubernetes-bootcamp');
      assert.equal((deployment.spec as { replicas: number }).replicas, 1);
      assert.match(await ok('rollout', 'status', 'deployment/kubernetes-bootcamp', '--timeout=60s'), /successfully rolled out/);
    });

    it('every kubectl create <kind> makes the object its YAML makes', async () => {
      // What the server writes (identity, timestamps, status) differs between any two objects.
      // Go writes a pod template's zero creationTimestamp as null in JSON and as an empty Time in
      // protobuf; the simulator keeps what the client sent, so that null is not compared either.
      const comparable = ({ metadata, status: _status, ...rest }: Resource & { status?: unknown }) => {
        const { name, uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, managedFields: _m, ...kept } = metadata;
        const text = JSON.stringify({ metadata: kept, ...rest }).replace(/"creationTimestamp":null,?/g, '');
        return JSON.parse(text.replaceAll(`"${name}"`, '"<name>"').replaceAll(`"${name.replace(/-yaml$/, '')}"`, '"<name>"')) as unknown;
      };
      const commands: [resource: string, name: string, ...args: string[]][] = [
        ['namespace', 'team-a', 'create', 'namespace', 'team-a'],
        ['configmap', 'tuning', 'create', 'configmap', 'tuning', '--from-literal=mode=fast', '--from-literal=empty='],
        ['secret', 'api-key', 'create', 'secret', 'generic', 'api-key', '--from-literal=key=s3cr3t'],
        ['secret', 'registry', 'create', 'secret', 'docker-registry', 'registry', '--docker-username=u', '--docker-password=p', '--docker-server=registry.example.com'],
        ['deployment', 'bootcamp', 'create', 'deployment', 'bootcamp', `--image=${BOOTCAMP_V1}`, '--port=8080'],
        ['deployment', 'zero', 'create', 'deployment', 'zero', '--image=nginx', '--replicas=0'],
        ['cronjob', 'nightly', 'create', 'cronjob', 'nightly', '--image=busybox', '--schedule=0 3 * * *', '--', 'date'],
        ['serviceaccount', 'builder', 'create', 'serviceaccount', 'builder'],
        ['role', 'pod-reader', 'create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods'],
        ['rolebinding', 'read-pods', 'create', 'rolebinding', 'read-pods', '--role=pod-reader', '--serviceaccount=default:builder'],
        ['clusterrole', 'node-reader', 'create', 'clusterrole', 'node-reader', '--verb=get', '--resource=nodes'],
        ['clusterrolebinding', 'read-nodes', 'create', 'clusterrolebinding', 'read-nodes', '--clusterrole=node-reader', '--user=alice'],
        ['priorityclass', 'zero-priority', 'create', 'priorityclass', 'zero-priority', '--value=0', '--description=value 0 is kept'],
        // A quota on pods or CPU would now be enforced on the tutorial's Deployment (it sets no requests).
        ['resourcequota', 'objects-max', 'create', 'quota', 'objects-max', '--hard=configmaps=50,secrets=50'],
        ['poddisruptionbudget', 'bootcamp', 'create', 'pdb', 'bootcamp', '--selector=app=bootcamp', '--min-available=1'],
        ['ingress', 'bootcamp', 'create', 'ingress', 'bootcamp', '--class=nginx', '--rule=bootcamp.example.com/=bootcamp:8080'],
      ];
      for (const [resource, name, ...args] of commands) {
        const [fromProtobuf, fromYaml] = await createdBothWays(resource, name, ...args);
        assert.deepEqual(comparable(fromProtobuf), comparable(fromYaml), `kubectl ${args.join(' ')}`);
      }
      assert.equal((await getJson('deployment', 'zero')).spec?.replicas, 0);
      assert.equal(JSON.parse(await ok('get', 'priorityclass', 'zero-priority', '-o', 'json')).value, 0);

      // A Job's selector and labels carry its own uid: its pod spec is what must match.
      const [job, jobFromYaml] = await createdBothWays('job', 'pi', 'create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-Mbignum=bpi', '-wle', 'print bpi(20)');
      const podSpec = (resource: Resource) => (resource.spec as { template: { spec: unknown } }).template.spec;
      assert.deepEqual(podSpec(job), podSpec(jobFromYaml));
    });

    it('create job --from=cronjob/hello makes a Job owned by the CronJob', async () => {
      await ok('apply', '-f', join(dir, 'cronjob.yaml'));
      assert.equal(await ok('create', 'job', '--from=cronjob/hello', 'hello-manual'), 'job.batch/hello-manual created');
      const cronJob = await getJson('cronjob', 'hello');
      const job = await getJson('job', 'hello-manual');
      assert.deepEqual(job.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cronJob.metadata.uid, controller: true }]);
      assert.equal(job.metadata.annotations?.['cronjob.kubernetes.io/instantiate'], 'manual');
      const podSpec = (job.spec as { template: { spec: { containers: { command: string[] }[]; volumes: unknown[] } } }).template.spec;
      assert.deepEqual(podSpec.containers[0].command, ['/bin/sh', '-c', 'date; echo Hello from the Kubernetes cluster']);
      assert.deepEqual(podSpec, (cronJob.spec as { jobTemplate: { spec: { template: { spec: unknown } } } }).jobTemplate.spec.template.spec);
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
