/** The twin child's command line: the context and kubeconfig, and the manifest's objects as identities only (a Secret's data never reaches it). */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatorArgs } from '../../../src/extension/headless/simulator-child';

describe('simulator child arguments for a twin', () => {
  const base = { nodes: 1, speed: 2, kubeconfigPath: '/tmp/twin.kubeconfig' };

  it('are the plain simulator’s without a twin', () => {
    assert.deepEqual(simulatorArgs(base), ['--nodes', '1', '--speed', '2', '--kubeconfig', '/tmp/twin.kubeconfig']);
  });

  it('name the context, the kubeconfig it is read from, and the identities of the manifest’s objects', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop' }, stringData: { password: 'hunter2' } };
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 3 } };
    const args = simulatorArgs({ ...base, twin: { context: 'prod', kubeconfig: join(tmpdir(), 'me', 'kube-config'), manifestObjects: [secret, deployment, { kind: 'Broken' }] } });
    const at = (flag: string): string | undefined => args[args.indexOf(flag) + 1];
    assert.equal(at('--twin-context'), 'prod');
    assert.equal(at('--twin-kubeconfig'), join(tmpdir(), 'me', 'kube-config'));
    assert.deepEqual(JSON.parse(at('--twin-objects')!), [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop' } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
    ]);
    assert.doesNotMatch(args.join(' '), /hunter2|replicas/);
  });

  it('add the ConfigMaps and Secrets the manifest’s pods read, in their namespace, once each', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { template: { spec: { containers: [{ name: 'app', envFrom: [{ configMapRef: { name: 'web-config' } }], env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] }], volumes: [{ name: 'c', configMap: { name: 'web-config' } }] } } },
    };
    const args = simulatorArgs({ ...base, twin: { context: 'prod', manifestObjects: [deployment] } });
    assert.deepEqual(JSON.parse(args[args.indexOf('--twin-objects') + 1]), [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-config', namespace: 'shop' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop' } },
    ]);
  });

  it('leave the kubeconfig to the environment when none is set, and send no empty object list', () => {
    const args = simulatorArgs({ ...base, twin: { context: 'prod' } });
    assert.deepEqual(args.slice(-2), ['--twin-context', 'prod']);
  });
});
