import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fieldHoverInText, type JourneyLookup } from '../../../src/core/explain/hover';
import { fieldRole } from '../../../src/core/explain/field-roles';
import { reportedPullTime } from '../../../src/core/explain/live';
import { caret, goldenJourney, simulatedJourneys } from './fixtures';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      nodeSelector:
        disktype: ssd
      containers:
      - name: nginx
        image: nginx:1.25
        resources:
          requests:
            cpu: 500m
`;

/** The manifest with the caret placed inside the nth occurrence of the key `key`. */
function at(text: string, key: string, nth = 0): { text: string; offset: number } {
  const matches = [...text.matchAll(new RegExp(`(?<![\\w-])${key}:`, 'g'))];
  const index = matches[nth]?.index;
  assert.ok(index !== undefined, `fixture has no ${key}`);
  return caret(`${text.slice(0, index + 1)}‸${text.slice(index + 1)}`);
}

function hoverOn(text: string, key: string, lookup?: JourneyLookup, nth = 0): string {
  const { text: plain, offset } = at(text, key, nth);
  const hover = fieldHoverInText(plain, offset, lookup);
  assert.ok(hover, `no hover on ${key}`);
  return hover.markdown;
}

describe('field hover', () => {
  it('shows the official description and the component that acts on replicas', () => {
    const markdown = hoverOn(DEPLOYMENT, 'replicas');
    assert.match(markdown, /^\*\*spec\.replicas\*\* · `integer`/);
    assert.match(markdown, /Number of desired pods\./);
    assert.match(markdown, /replicaset-controller/);
    assert.match(markdown, /creates or deletes pods until exactly that many exist/);
  });

  it('covers the exact range of the hovered key', () => {
    const { text, offset } = at(DEPLOYMENT, 'image');
    const hover = fieldHoverInText(text, offset);
    assert.ok(hover);
    assert.equal(text.slice(hover.start, hover.end), 'image');
    assert.equal(hover.fieldPath, 'spec.template.spec.containers[0].image');
  });

  it('names the scheduler for nodeSelector and requests, the kubelet for image', () => {
    assert.match(hoverOn(DEPLOYMENT, 'nodeSelector'), /default-scheduler.*_scheduling_[\s\S]*NodeAffinity filter/);
    assert.match(hoverOn(DEPLOYMENT, 'requests'), /NodeResourcesFit filter/);
    assert.match(hoverOn(DEPLOYMENT, 'image'), /kubelet.*_on the node_[\s\S]*pull the image/);
  });

  it('explains a label under nodeSelector with the nodeSelector role', () => {
    assert.match(hoverOn(DEPLOYMENT, 'disktype'), /NodeAffinity filter/);
  });

  it('finds the role of pod-spec fields in a bare Pod too', () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: busybox\n';
    assert.match(hoverOn(pod, 'image'), /^\*\*spec\.containers\\\[0\\\]\.image\*\*/);
    assert.equal(fieldRole('Pod', ['spec', 'containers', 0, 'image'])?.live, 'image');
  });

  it('gives no hover on values, on non-Kubernetes YAML, or on fields outside the schema', () => {
    const value = caret(DEPLOYMENT.replace('replicas: 3', 'replicas: ‸3'));
    assert.equal(fieldHoverInText(value.text, value.offset), undefined);
    const plain = caret('name: build\nsteps:\n  - ru‸n: npm test\n');
    assert.equal(fieldHoverInText(plain.text, plain.offset), undefined);
    const unknown = caret(DEPLOYMENT.replace('replicas: 3', 'replikas: 3').replace('replikas', 'repl‸ikas'));
    assert.equal(fieldHoverInText(unknown.text, unknown.offset), undefined);
    const csr = caret('apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: s\nspec:\n  us‸ages: []\n');
    assert.equal(fieldHoverInText(csr.text, csr.offset), undefined);
  });

  it('keeps working in a document with a YAML error', () => {
    const broken = DEPLOYMENT.replace('      app: web\n  template', '      app: [web\n  template');
    const markdown = hoverOn(broken, 'replicas');
    assert.match(markdown, /Number of desired pods/);
  });

  it('answers in the right document of a multi-document file', () => {
    const text = readFileSync('examples/multi-document.yaml', 'utf8');
    assert.match(hoverOn(text, 'data'), /\*\*data\*\*/);
    assert.match(hoverOn(text, 'replicas'), /replicaset-controller/);
  });
});

describe('field hover, live state', () => {
  const lookupOf = (journey: ReturnType<typeof goldenJourney>): JourneyLookup => (root) =>
    root.kind === journey.root.kind && root.name === journey.root.name ? journey : undefined;

  it('shows desired/ready replicas and the nodes of a traced Deployment', () => {
    const journey = goldenJourney('nginx-deployment');
    const markdown = hoverOn(DEPLOYMENT, 'replicas', lookupOf(journey));
    assert.match(markdown, /\*\*Live\*\* · Deployment web: complete in \d+\.\d s/);
    assert.match(markdown, /- 3 desired · 3 ready · 3 available/);
    assert.match(markdown, /- running on node-\d, node-\d, node-\d/);
  });

  it('shows the pull time per node for image, as the kubelet reported it', () => {
    const journey = goldenJourney('nginx-deployment');
    const markdown = hoverOn(DEPLOYMENT, 'image', lookupOf(journey));
    const pulls = markdown.split('\n').filter((line) => /^- node-\d: /.test(line));
    assert.ok(pulls.length >= 1, markdown);
    assert.ok(pulls.every((line) => /pulled in [0-9.]+m?s|already present on the node/.test(line)), pulls.join('\n'));
  });

  it('quotes the scheduler for requests of an unschedulable Deployment', () => {
    const journey = goldenJourney('unschedulable');
    const markdown = hoverOn(DEPLOYMENT.replace('name: web', 'name: big'), 'requests', lookupOf(journey));
    assert.match(markdown, /1 pod Pending\. default-scheduler: `0\/3 nodes are available: 3 Insufficient cpu\. preemption: 0\/3 nodes are available: 3 No preemption victims found for incoming pod\.\.`/);
  });

  it('shows live facts from a simulated run as well', () => {
    const { journeys } = simulatedJourneys(DEPLOYMENT.replace('      nodeSelector:\n        disktype: ssd\n', ''));
    const [journey] = journeys;
    assert.equal(journey.status, 'complete');
    const markdown = hoverOn(DEPLOYMENT, 'image', lookupOf(journey));
    assert.match(markdown, /- node-\d: (pulled in|already present)/);
  });

  it('reads the kubelet pull time in both message formats', () => {
    assert.equal(reportedPullTime('Successfully pulled image "nginx:1.25" in 5.870196872s'), '5.870196872s');
    assert.equal(reportedPullTime('Successfully pulled image "nginx:1.25" in 1.2s (1.2s including waiting). Image size: 72123456 bytes.'), '1.2s');
    assert.equal(reportedPullTime('Successfully pulled image "nginx:1.25" in 450ms (450ms including waiting)'), '450ms');
    assert.equal(reportedPullTime('Successfully pulled image "nginx:1.25" in 1m2.5s'), '1m2.5s');
    assert.equal(reportedPullTime('Container image "nginx:1.25" already present on machine'), undefined);
  });
});
