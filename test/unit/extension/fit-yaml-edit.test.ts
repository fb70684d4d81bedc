import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { applyFitEdits, type FitEdit, type FitSuggestion, type FitTarget } from '../../../src/core/journey/fit-suggestions';
import type { KubeObject, Pod, Taint } from '../../../src/core/k8s';
import { parseManifest } from '../../../src/core/manifest';
import { applyChange, changeBetween, findTarget, fitSuggestionChange, suggestionLine } from '../../../src/extension/headless/fit-yaml-edit';
import { Simulator } from '../../../src/sim/simulator';

const TOO_BIG: FitTarget = { kind: 'Deployment', namespace: 'default', name: 'too-big' };
const TEMPLATE = 'spec.template.spec';

function edited(text: string, edits: FitEdit[], target: FitTarget = TOO_BIG): string {
  const result = fitSuggestionChange(text, { target, edits });
  assert.ok('change' in result, `a change, got ${JSON.stringify(result)}`);
  assert.equal(applyChange(text, result.change), result.text);
  return result.text;
}

/** The lines of `after` that are not in `before`, and the lines of `before` gone from it. */
function lineDiff(before: string, after: string): { added: string[]; removed: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  return { added: b.filter((line) => !a.includes(line)), removed: a.filter((line) => !b.includes(line)) };
}

const deployment = (spec: string, head = ''): string => `${head}apiVersion: apps/v1
kind: Deployment
metadata:
  name: too-big  # the one the scheduler refuses
spec:
  replicas: 4
  selector:
    matchLabels:
      app: too-big
  template:
    metadata:
      labels:
        app: too-big
    spec:
${spec}`;

const CONTAINER = `      containers:
      - name: app
        image: nginx:1.25
        resources:
          requests:
            cpu: "8"  # more than a node has
            memory: 256Mi
`;

describe('fit suggestions as YAML text edits (Quick Fix)', () => {
  it('set: replaces only the value, keeps the comment after it, drops quotes YAML no longer needs', () => {
    const text = deployment(CONTAINER);
    const after = edited(text, [{ op: 'set', path: `${TEMPLATE}.containers[0].resources.requests.cpu`, value: '3920m' }]);
    assert.deepEqual(lineDiff(text, after), { added: ['            cpu: 3920m  # more than a node has'], removed: ['            cpu: "8"  # more than a node has'] });
    const result = fitSuggestionChange(text, { target: TOO_BIG, edits: [{ op: 'set', path: `${TEMPLATE}.containers[0].resources.requests.cpu`, value: '3920m' }] });
    assert.ok('change' in result);
    assert.deepEqual(result.change, { start: text.indexOf('"8"'), end: text.indexOf('"8"') + 3, text: '3920m' });
  });

  it('set: keeps quotes that were a choice of style, and a number stays a number', () => {
    const text = deployment(CONTAINER.replace('memory: 256Mi', "memory: '256Mi'"));
    const after = edited(text, [
      { op: 'set', path: `${TEMPLATE}.containers[0].resources.requests.memory`, value: '14442Mi' },
      { op: 'set', path: 'spec.replicas', value: 3 },
    ]);
    assert.deepEqual(lineDiff(text, after), { added: ['  replicas: 3', "            memory: '14442Mi'"], removed: ['  replicas: 4', "            memory: '256Mi'"] });
    assert.equal((parse(after) as { spec: { replicas: unknown } }).spec.replicas, 3);
  });

  it('set: creates the missing maps under the field, indented like their siblings', () => {
    const text = deployment(`      containers:
        - name: app   # indented list style
          image: nginx:1.25
      restartPolicy: Always
`);
    const after = edited(text, [{ op: 'set', path: `${TEMPLATE}.containers[0].resources.requests.cpu`, value: '3920m' }]);
    assert.ok(after.includes(`          image: nginx:1.25
          resources:
            requests:
              cpu: 3920m
      restartPolicy: Always`), after);
    assert.ok(after.includes('- name: app   # indented list style'));
  });

  it('set a whole map (nodeSelector): each key changed in place in a flow map, comments of a block map kept', () => {
    const flow = deployment(`      nodeSelector: {kubernetes.io/os: windows, disk: ssd}  # where it may run\n${CONTAINER}`);
    const afterFlow = edited(flow, [{ op: 'set', path: `${TEMPLATE}.nodeSelector`, value: { 'kubernetes.io/os': 'linux' } }]);
    assert.deepEqual(lineDiff(flow, afterFlow).added, ['      nodeSelector: {kubernetes.io/os: linux}  # where it may run']);

    const block = deployment(`      nodeSelector:
        # the OS of the image
        kubernetes.io/os: windows
${CONTAINER}`);
    const afterBlock = edited(block, [{ op: 'set', path: `${TEMPLATE}.nodeSelector`, value: { 'kubernetes.io/os': 'linux' } }]);
    assert.deepEqual(lineDiff(block, afterBlock), { added: ['        kubernetes.io/os: linux'], removed: ['        kubernetes.io/os: windows'] });
  });

  it('set a map that is missing: a block under the pod spec', () => {
    const text = deployment(CONTAINER);
    const after = edited(text, [{ op: 'set', path: `${TEMPLATE}.nodeSelector`, value: { 'kubernetes.io/os': 'linux' } }]);
    assert.ok(after.endsWith(`            memory: 256Mi
      nodeSelector:
        kubernetes.io/os: linux
`), after);
  });

  it('add: a toleration appended to a block list in its style, or a new list; a value to a flow list', () => {
    const toleration: Taint & { operator: string } = { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' };
    const existing = deployment(`      tolerations:
      - key: team   # ours
        operator: Exists
${CONTAINER}`);
    const afterExisting = edited(existing, [{ op: 'add', path: `${TEMPLATE}.tolerations`, value: toleration }]);
    assert.ok(afterExisting.includes(`      - key: team   # ours
        operator: Exists
      - key: dedicated
        operator: Equal
        value: gpu
        effect: NoSchedule
      containers:`), afterExisting);

    const missing = deployment(CONTAINER);
    const afterMissing = edited(missing, [{ op: 'add', path: `${TEMPLATE}.tolerations`, value: toleration }]);
    // The file writes lists level with their key (`containers:\n- name`): the new one too.
    assert.ok(afterMissing.endsWith(`      tolerations:
      - key: dedicated
        operator: Equal
        value: gpu
        effect: NoSchedule
`), afterMissing);

    const values = deployment(`      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - {key: kubernetes.io/arch, operator: In, values: [arm64]}
${CONTAINER}`);
    const afterValues = edited(values, [{ op: 'add', path: `${TEMPLATE}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values`, value: 'amd64' }]);
    assert.deepEqual(lineDiff(values, afterValues).added, ['              - {key: kubernetes.io/arch, operator: In, values: [arm64, amd64]}']);
    // Taken twice (a stale warning): nothing more to add.
    assert.deepEqual(fitSuggestionChange(afterExisting, { target: TOO_BIG, edits: [{ op: 'add', path: `${TEMPLATE}.tolerations`, value: toleration }] }), { unchanged: true });
  });

  it('remove: a list item goes with its lines; the last one leaves an empty list', () => {
    const text = deployment(`      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: db}}
            topologyKey: kubernetes.io/hostname
          # next to the cache too
          - labelSelector: {matchLabels: {app: cache}}
            topologyKey: kubernetes.io/hostname
${CONTAINER}`);
    const path = `${TEMPLATE}.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution`;
    const once = edited(text, [{ op: 'remove', path: `${path}[0]` }]);
    assert.deepEqual(lineDiff(text, once).removed, ['          - labelSelector: {matchLabels: {app: db}}']);
    assert.ok(once.includes('          # next to the cache too\n          - labelSelector: {matchLabels: {app: cache}}'), once);
    const twice = edited(once, [{ op: 'remove', path: `${path}[0]` }]);
    assert.ok(twice.includes('          requiredDuringSchedulingIgnoredDuringExecution: []\n'), twice);
    assert.deepEqual((parse(twice) as { spec: { template: { spec: { affinity: unknown } } } }).spec.template.spec.affinity, { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] } });
  });

  it('create: a new document at the end of a multi-document file, in its target’s namespace, once', () => {
    const text = `${deployment(CONTAINER).replace('  name: too-big', '  name: too-big\n  namespace: shop')}---\n# the Service\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{port: 80}]`;
    const claim: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    const target = { ...TOO_BIG, namespace: 'shop' };
    const after = edited(text, [{ op: 'create', object: claim }], target);
    assert.ok(after.startsWith(text), 'the file is only added to');
    assert.equal(after.slice(text.length), `
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: shop
spec:
  accessModes:
  - ReadWriteOnce
  resources:
    requests:
      storage: 1Gi
`);
    assert.equal(parseManifest(after).documents.length, 3);
    assert.deepEqual(fitSuggestionChange(after, { target, edits: [{ op: 'create', object: claim }] }), { unchanged: true });
  });

  it('edits the target’s document only, in a multi-document file or a List', () => {
    const other = deployment(CONTAINER).replaceAll('too-big', 'other');
    const text = `${other}---\n${deployment(CONTAINER)}`;
    const after = edited(text, [{ op: 'set', path: 'spec.replicas', value: 3 }]);
    assert.ok(after.startsWith(other), 'the first document is untouched');
    assert.equal(parseManifest(after).documents[1].object?.spec && (parseManifest(after).documents[1].object!.spec as { replicas: number }).replicas, 3);

    const list = `apiVersion: v1\nkind: List\nitems:\n- ${deployment(CONTAINER).trimEnd().split('\n').join('\n  ')}\n`;
    const manifest = parseManifest(list);
    assert.deepEqual(findTarget(manifest, TOO_BIG)?.prefix, ['items', 0]);
    const afterList = edited(list, [{ op: 'set', path: 'spec.replicas', value: 2 }]);
    assert.deepEqual(lineDiff(list, afterList), { added: ['    replicas: 2'], removed: ['    replicas: 4'] });
  });

  it('says why when the target is not in the file or the path runs into a value', () => {
    const text = deployment(CONTAINER);
    assert.deepEqual(fitSuggestionChange(text, { target: { ...TOO_BIG, name: 'elsewhere' }, edits: [{ op: 'set', path: 'spec.replicas', value: 1 }] }), { problem: 'Deployment elsewhere is not in this file' });
    assert.deepEqual(fitSuggestionChange(text, { target: TOO_BIG, edits: [{ op: 'set', path: 'spec.selector[0].app', value: 'x' }] }), { problem: 'spec.selector is not a list' });
  });

  it('puts the diagnostic on the line of the field, or of its nearest parent when it is missing', () => {
    const text = deployment(CONTAINER);
    const manifest = parseManifest(text);
    const lineOf = (needle: string): number => text.split('\n').findIndex((line) => line.includes(needle)) + 1;
    const at = (path: string): number | undefined => suggestionLine(manifest, { kind: 'cpu', summary: '', nodes: 1, totalNodes: 3, edits: [], target: TOO_BIG, path });
    assert.equal(at(`${TEMPLATE}.containers[0].resources.requests.cpu`), lineOf('cpu: "8"'));
    assert.equal(at('spec.replicas'), lineOf('replicas: 4'));
    assert.equal(at(`${TEMPLATE}.tolerations`), lineOf('    spec:'));
  });

  it('changeBetween: the one changed span', () => {
    assert.deepEqual(changeBetween('cpu: "8"  # x', 'cpu: 3920m  # x'), { start: 5, end: 8, text: '3920m' });
    assert.deepEqual(changeBetween('a\n', 'a\n---\nb\n'), { start: 2, end: 2, text: '---\nb\n' });
  });
});

describe('every suggestion the simulator makes for test/fixtures/fit-stuck.yaml, applied to the text', () => {
  it('gives the object applyFitEdits gives, and the other documents stay as they were', () => {
    const text = readFileSync('test/fixtures/fit-stuck.yaml', 'utf8');
    const manifest = parseManifest(text);
    const sim = new Simulator({ nodes: 3, seed: 3 });
    for (const document of manifest.documents) sim.apply(document.object!);
    sim.runUntil(() => false, 5_000);
    const pending = sim.store.list<Pod & KubeObject>('Pod').items.filter((pod) => !pod.spec?.nodeName);
    const suggestions: FitSuggestion[] = pending.flatMap((pod) => sim.components.scheduler.suggestFits(pod).suggestions);
    const kinds = new Set(suggestions.map((s) => s.kind));
    for (const kind of ['cpu', 'memory', 'nodeSelector', 'nodeAffinity', 'replicas', 'claim', 'podAffinity'] as const) assert.ok(kinds.has(kind), `a ${kind} suggestion`);
    for (const suggestion of suggestions) {
      const result = fitSuggestionChange(text, suggestion);
      assert.ok('change' in result, `${suggestion.summary}: ${JSON.stringify(result)}`);
      const after = parseManifest(result.text);
      assert.deepEqual(after.documents.flatMap((d) => d.problems), [], suggestion.summary);
      const place = findTarget(manifest, suggestion.target!)!;
      const expected = applyFitEdits(place.document.object!, suggestion.edits);
      assert.deepEqual(findTarget(after, suggestion.target!)?.document.object, expected, suggestion.summary);
      // The other documents parse to what they were; a created object is a new last document.
      const created = suggestion.edits.flatMap((edit) => (edit.op === 'create' ? [edit.object] : []));
      const others = (m: typeof manifest): unknown[] => m.documents.filter((d) => d.index !== place.document.index).map((d) => d.object);
      assert.deepEqual(others(after), [...others(manifest), ...created], suggestion.summary);
    }
  });
});
