import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { stringify } from 'yaml';
import { KubeconfigError, kubeconfigFiles, listContexts, loadKubeconfig } from '../../src/cluster/kubeconfig';

const SECRET_TOKEN = 'kj-secret-token-0123456789';

function write(dir: string, name: string, config: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, stringify(config));
  return path;
}

function cluster(name: string, server: string, extra: Record<string, unknown> = {}) {
  return { name, cluster: { server, ...extra } };
}

describe('cluster kubeconfig loading (kubectl rules)', () => {
  let dir: string;
  let first: string;
  let second: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kj-kubeconfig-'));
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'certs', 'ca.crt'), 'not really a certificate');
    writeFileSync(join(dir, 'token'), `${SECRET_TOKEN}-from-file`);
    first = write(dir, 'first.yaml', {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [cluster('shared', 'https://first.example:6443', { 'certificate-authority': 'certs/ca.crt' })],
      users: [
        { name: 'alice', user: { token: SECRET_TOKEN } },
        { name: 'eks', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'aws', args: ['eks', 'get-token'] } } },
      ],
      contexts: [
        { name: 'dev', context: { cluster: 'shared', user: 'alice', namespace: 'shop' } },
        { name: 'prod', context: { cluster: 'shared', user: 'eks' } },
      ],
      'current-context': 'dev',
    });
    second = write(dir, 'second.yaml', {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [cluster('shared', 'https://second.example:6443'), cluster('lab', 'https://lab.example:6443')],
      users: [
        { name: 'alice', user: { token: 'overridden' } },
        { name: 'bob', user: { 'token-file': 'token' } },
        { name: 'carol', user: { 'client-certificate-data': 'Y2VydA==', 'client-key-data': 'a2V5' } },
      ],
      contexts: [
        { name: 'lab', context: { cluster: 'lab', user: 'bob' } },
        { name: 'lab-cert', context: { cluster: 'lab', user: 'carol' } },
        { name: 'dev', context: { cluster: 'lab', user: 'bob' } },
      ],
      'current-context': 'lab',
    });
  });

  it('merges KUBECONFIG files first-wins, skipping missing ones, and takes the first current-context', () => {
    const env = { KUBECONFIG: [first, join(dir, 'missing.yaml'), second, first].join(delimiter) };
    assert.deepEqual(kubeconfigFiles({ env }).files, [first, join(dir, 'missing.yaml'), second]);
    const loaded = loadKubeconfig({ env });
    assert.equal(loaded.context.name, 'dev');
    assert.equal(loaded.server, 'https://first.example:6443', 'the first file defines cluster "shared"');
    assert.equal(loaded.context.namespace, 'shop');
    assert.deepEqual(loaded.files, [first, second]);
    assert.equal(loaded.kubeConfig.getCurrentUser()?.token, SECRET_TOKEN, 'the first file defines user "alice"');
    assert.deepEqual(
      listContexts({ env }).map((c) => [c.name, c.cluster, c.current]),
      [
        ['dev', 'shared', true],
        ['prod', 'shared', false],
        ['lab', 'lab', false],
        ['lab-cert', 'lab', false],
      ],
    );
  });

  it('selects another context, with its cluster, user and namespace (default when it names none)', () => {
    const env = { KUBECONFIG: [first, second].join(delimiter) };
    const lab = loadKubeconfig({ env, context: 'lab' });
    assert.equal(lab.server, 'https://lab.example:6443');
    assert.equal(lab.context.namespace, 'default');
    assert.equal(lab.context.current, false);
    assert.equal(lab.kubeConfig.getCurrentContext(), 'lab');
    assert.equal(lab.kubeConfig.getCurrentUser()?.token, `${SECRET_TOKEN}-from-file`, 'token-file is read relative to its kubeconfig');
  });

  it('resolves file references relative to the kubeconfig that holds them', () => {
    const loaded = loadKubeconfig({ kubeconfig: first, env: {} });
    assert.equal(loaded.kubeConfig.getCurrentCluster()?.caFile, join(dir, 'certs', 'ca.crt'));
  });

  it('uses --kubeconfig alone, over KUBECONFIG, and ~/.kube/config when neither is set', () => {
    assert.equal(loadKubeconfig({ kubeconfig: second, env: { KUBECONFIG: first } }).context.name, 'lab');
    const home = join(dir, 'home');
    mkdirSync(join(home, '.kube'), { recursive: true });
    write(join(home, '.kube'), 'config', { clusters: [cluster('c', 'https://home.example')], users: [{ name: 'u', user: {} }], contexts: [{ name: 'home', context: { cluster: 'c', user: 'u' } }], 'current-context': 'home' });
    const loaded = loadKubeconfig({ env: { HOME: home } });
    assert.equal(loaded.context.name, 'home');
    assert.equal(loaded.context.credential, 'none');
  });

  it('fails as kubectl does: missing explicit file, unknown context, no current context', () => {
    assert.throws(() => loadKubeconfig({ kubeconfig: join(dir, 'nope.yaml') }), (e: unknown) => e instanceof KubeconfigError && e.message === `stat ${join(dir, 'nope.yaml')}: no such file or directory`);
    assert.throws(() => loadKubeconfig({ kubeconfig: first, context: 'staging' }), /context was not found for specified context: staging/);
    const noCurrent = write(dir, 'no-current.yaml', { clusters: [cluster('c', 'https://x')], contexts: [{ name: 'a', context: { cluster: 'c' } }] });
    assert.throws(() => loadKubeconfig({ kubeconfig: noCurrent }), /current-context is not set.*a/);
    assert.throws(() => loadKubeconfig({ env: { HOME: join(dir, 'nobody') } }), /no kubeconfig found/);
  });

  it('says which kind of credential each context uses, never the credential', () => {
    const contexts = listContexts({ env: { KUBECONFIG: [first, second].join(delimiter) } });
    assert.deepEqual(
      contexts.map((c) => [c.name, c.credential, c.credentialDetail]),
      [
        ['dev', 'token', undefined],
        ['prod', 'exec', 'aws'],
        ['lab', 'token', undefined],
        ['lab-cert', 'client-certificate', undefined],
      ],
    );
    const shown = JSON.stringify(contexts) + JSON.stringify(loadKubeconfig({ kubeconfig: first }).context);
    assert.ok(!shown.includes(SECRET_TOKEN), 'no token in what callers can print');
    assert.ok(!shown.includes('Y2VydA=='), 'no certificate data');
  });
});
