import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fieldPathAt, lineOfField, parseManifest } from '../../../src/core/manifest';

describe('parseManifest', () => {
  it('splits a multi-document file and records where each document starts', () => {
    const manifest = parseManifest(readFileSync('examples/multi-document.yaml', 'utf8'));
    assert.deepEqual(manifest.documents.map((d) => d.object?.kind), ['Namespace', 'ConfigMap', 'Deployment']);
    assert.deepEqual(manifest.documents.map((d) => d.startLine), [2, 7, 15]);
    assert.ok(manifest.documents.every((d) => d.isKubernetes && d.problems.length === 0));
  });

  it('places a YAML syntax error on its line and keeps the other documents', () => {
    const manifest = parseManifest('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: [unclosed\n');
    assert.equal(manifest.documents.length, 2);
    assert.equal(manifest.documents[0].problems.length, 0);
    assert.equal(manifest.documents[1].object, undefined);
    assert.ok(manifest.documents[1].problems.length > 0);
    assert.equal(manifest.documents[1].problems[0].line >= 7, true);
  });

  it('reports a document without kind', () => {
    const [doc] = parseManifest('apiVersion: v1\nmetadata:\n  name: a\n').documents;
    assert.equal(doc.isKubernetes, false);
    assert.equal(doc.problems[0].message, 'not a Kubernetes object: kind missing');
  });

  it('finds the line of a field path, falling back to the nearest parent', () => {
    const manifest = parseManifest(readFileSync('examples/nginx-deployment.yaml', 'utf8'));
    const [doc] = manifest.documents;
    assert.equal(lineOfField(manifest, doc, 'spec.template.spec.containers[0].image'), 21);
    assert.equal(lineOfField(manifest, doc, 'spec.replicas'), 10);
    assert.equal(lineOfField(manifest, doc, 'spec.template.spec.nodeSelector'), 18);
  });

  it('returns the key path under an offset', () => {
    const text = readFileSync('examples/nginx-deployment.yaml', 'utf8');
    const manifest = parseManifest(text);
    const offset = text.indexOf('image:') + 2;
    assert.deepEqual(fieldPathAt(manifest.documents[0], offset), { path: ['spec', 'template', 'spec', 'containers', 0, 'image'], onKey: true });
  });
});
