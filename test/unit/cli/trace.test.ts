import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runClosingOutputEarly, traceCaptured as trace } from './capture';
import { parseRecords } from './records';

describe('kube-journey trace', () => {
  it('prints the nginx Deployment journey through Running and Ready and exits 0', async () => {
    const { code, out, err } = await trace('examples/nginx-deployment.yaml');
    assert.equal(err, '');
    assert.equal(code, 0);
    assert.match(out, /^deployment\.apps\/nginx-deployment created$/m);
    assert.match(out, /Scaled up replica set nginx-deployment-\S+ from 0 to 3/);
    assert.equal((out.match(/Successfully assigned default\/nginx-deployment-\S+ to node-\d/g) ?? []).length, 3);
    assert.equal((out.match(/\bPod Ready\b/g) ?? []).length, 3);
    assert.match(out, /3\/3 ready/);
    assert.match(out, /apply → Available in \d+(\.\d+)?s/);
  });

  it('gives the same journey for the same seed', async () => {
    const first = await trace('examples/nginx-deployment.yaml', { seed: 9 });
    const second = await trace('examples/nginx-deployment.yaml', { seed: 9 });
    assert.equal(first.out, second.out);
  });

  it('exits 1 with the scheduler message when a pod cannot be scheduled', async () => {
    const { code, err } = await trace('examples/too-big.yaml', { timeoutMs: 30_000 });
    assert.equal(code, 1);
    assert.match(err, /did not finish within 30s of simulated time/);
    assert.match(err, /0\/3 nodes are available: 3 Insufficient cpu\. preemption: 0\/3 nodes are available: 3 No preemption victims found for incoming pod\./);
  });

  it('exits 1 with the back-off reason for an image that cannot be pulled', async () => {
    const { code, err } = await trace('examples/image-pull-failure.yaml', { timeoutMs: 60_000 });
    assert.equal(code, 1);
    assert.match(err, /ImagePullBackOff|ErrImagePull/);
  });

  it('exits 1 with CrashLoopBackOff for a container that keeps exiting', async () => {
    const { code, err } = await trace('examples/crash-loop.yaml', { timeoutMs: 60_000 });
    assert.equal(code, 1);
    assert.match(err, /CrashLoopBackOff/);
  });

  it('places a YAML syntax error on its line and applies nothing', async () => {
    const { code, out, err } = await trace('test/fixtures/broken-yaml.yaml');
    assert.equal(code, 1);
    assert.equal(out, '');
    assert.match(err, /^test\/fixtures\/broken-yaml\.yaml:[56]:\d+: Flow sequence/m);
    assert.match(err, /nothing was applied/);
  });

  it('places the API server 422 on the offending field line', async () => {
    const { code, err } = await trace('test/fixtures/selector-mismatch.yaml');
    assert.equal(code, 1);
    assert.match(err, /^test\/fixtures\/selector-mismatch\.yaml:11: Error from server: error when applying deployment\.apps\/bad: Deployment\.apps "bad" is invalid: spec\.template\.metadata\.labels: Invalid value/m);
  });

  it('places a value of the wrong type on its line, with the API server\'s decoding error', async () => {
    const { code, err } = await trace('test/fixtures/affinity-as-list.yaml');
    assert.equal(code, 1);
    assert.equal(
      err,
      'test/fixtures/affinity-as-list.yaml:15: Error from server: error when applying deployment.apps/web: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal array into Go struct field NodeAffinity.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector\n',
    );
  });

  it("refuses a removed API version with kubectl's words on the apiVersion line, and names the served one", async () => {
    const { code, err } = await trace('test/fixtures/cronjob-v1beta1.yaml');
    assert.equal(code, 1);
    assert.equal(
      err,
      [
        'test/fixtures/cronjob-v1beta1.yaml:1: error when applying cronjob/hello: resource mapping not found for name: "hello" namespace: "" from "cronjob-v1beta1.yaml": no matches for kind "CronJob" in version "batch/v1beta1"',
        'ensure CRDs are installed first',
        'CronJob is served as batch/v1 (Kubernetes 1.32 serves no other version of it): change apiVersion to batch/v1',
        '',
      ].join('\n'),
    );
  });

  it('applies and traces each item of a kind: List, as kubectl unpacks it', async () => {
    const { code, out } = await trace('test/fixtures/kind-list.yaml', { json: true });
    assert.equal(code, 0);
    const parsed = parseRecords(out);
    assert.deepEqual(parsed.results.map((r) => `${r.object} ${r.action} line ${r.line}`), ['configmap/one created line 4', 'deployment.apps/web created line 9']);
    assert.deepEqual(parsed.journeys.map((j) => `${j.root.name} ${j.status}`), ['web complete']);
  });

  it('applies every document of a multi-document file and prints JSON on request', async () => {
    const { code, out } = await trace('examples/multi-document.yaml', { json: true });
    assert.equal(code, 0);
    const parsed = parseRecords(out);
    assert.deepEqual(parsed.results.map((r) => `${r.object} ${r.action}`), ['namespace/shop created', 'configmap/frontend-config created', 'deployment.apps/frontend created']);
    assert.deepEqual(parsed.journeys.map((j) => `${j.root.name} ${j.status}`), ['frontend complete']);
  });
});

describe('kube-journey trace of an image the simulator cannot know exists', () => {
  let dir: string;
  const deploymentOf = (replicas: number): string => {
    const file = join(dir, `app-${replicas}.yaml`);
    const template = `    metadata:\n      labels: {app: app}\n    spec:\n      containers:\n      - name: app\n        image: acme/app:1.0\n        command: [sleep, infinity]\n        resources: {requests: {cpu: 1m}}\n`;
    writeFileSync(file, `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: app}\n  template:\n${template}`);
    return file;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-journey-assumed-pull-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('marks each pull as assumed and lists the image under the summary', async () => {
    const { code, out } = await trace(deploymentOf(3));
    assert.equal(code, 0);
    const mark = '[assumed: the registry serves docker.io/acme/app:1.0 (the simulator reaches no registry)]';
    assert.equal(out.split(mark).length - 1, 3, out);
    assert.match(out, /status +complete \(done\), assuming 1 outcome the simulator cannot know, for 3 pods/);
    assert.match(out, /assumed +1 outcome, for 3 pods \(a real cluster may differ\)\n +Pod default\/app-\S+ and 2 more pods: image docker\.io\/acme\/app:1\.0 assumed to exist \(the simulator reaches no registry\)\n/);
  });

  it('lists the image once however many pods pull it', async () => {
    const { code, out } = await trace(deploymentOf(240), { json: true });
    assert.equal(code, 0);
    const [journey] = parseRecords(out).journeys;
    assert.equal(journey.status, 'complete');
    assert.equal(journey.counts.ready, 240);
    assert.equal(journey.assumptionCount, 1);
    assert.deepEqual(journey.assumptions?.map((assumption) => [assumption.what, assumption.objects]), [['image docker.io/acme/app:1.0 assumed to exist (the simulator reaches no registry)', 240]]);
    assert.equal(journey.assumedObjects, 240);
  });
});

describe('kube-journey trace of a pod with two containers', () => {
  let dir: string;
  const podOf = (images: readonly [string, string]): string => {
    const file = join(dir, `two-${images.join('-').replace(/[/:]/g, '_')}.yaml`);
    const container = (name: string, image: string): string => `  - name: ${name}\n    image: ${image}\n    command: [sleep, infinity]\n`;
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: two\nspec:\n  containers:\n${container('web', images[0])}${container('cache', images[1])}`);
    return file;
  };
  /** `kind container title [assumed]` of the pod's pull stages, in order. */
  const pullStages = async (file: string): Promise<string[]> => {
    const { code, out } = await trace(file, { json: true });
    assert.equal(code, 0);
    const pod = parseRecords(out).objects.find((object) => object.ref.kind === 'Pod')!;
    return pod.stages.filter((stage) => stage.kind === 'pulling' || stage.kind === 'pulled').map((stage) => [stage.kind, stage.container, stage.title, stage.assumed ?? ''].join(' ').trim());
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-journey-two-containers-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('shows each container pulling its image, as the kubelet names the container in its events', async () => {
    assert.deepEqual(await pullStages(podOf(['nginx:1.25', 'redis:7'])), [
      'pulling web Pulling image nginx:1.25',
      'pulled web Pulled image nginx:1.25',
      'pulling cache Pulling image redis:7',
      'pulled cache Pulled image redis:7',
    ]);
  });

  it('marks the pull of each container whose image the simulator assumes', async () => {
    const assumed = (image: string): string => `assumed: the registry serves docker.io/${image} (the simulator reaches no registry)`;
    assert.deepEqual(await pullStages(podOf(['acme/web:1.0', 'acme/cache:1.0'])), [
      'pulling web Pulling image acme/web:1.0',
      `pulled web Pulled image acme/web:1.0 ${assumed('acme/web:1.0')}`,
      'pulling cache Pulling image acme/cache:1.0',
      `pulled cache Pulled image acme/cache:1.0 ${assumed('acme/cache:1.0')}`,
    ]);
  });
});

describe('kube-journey command line, piped into a reader that stops early', () => {
  it('exits 0 without an error when its output pipe closes (`| head`)', async function () {
    this.timeout(60_000);
    const { code, stderr } = await runClosingOutputEarly(['trace', '-f', 'examples/nginx-deployment.yaml']);
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});
