import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Batcher, type Timers } from '../../../src/extension/headless/batcher';
import { SimulatorChild, type SimulatorLaunch } from '../../../src/extension/headless/simulator-child';

/** The server entry run from source, as dist/simulator-server.js runs it from the bundle. */
const launch: SimulatorLaunch = { command: process.execPath, args: ['--import', 'tsx', 'src/server/main.ts'] };

function getJson(url: string, token: string, ca: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Authorization: `Bearer ${token}` }, ca }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${res.statusCode}: ${body}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('simulator child process', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'kube-journey-child-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('prints its address once ready, serves the API with the given node count, and stops when stdin closes', async () => {
    const kubeconfigPath = join(folder, 'sim.kubeconfig');
    const child = await SimulatorChild.start(launch, { nodes: 4, speed: 1, kubeconfigPath });
    try {
      assert.match(child.ready.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(child.ready.kubeconfigPath, kubeconfigPath);
      assert.match(readFileSync(kubeconfigPath, 'utf8'), /current-context: kube-journey-simulator/);
      const nodes = (await getJson(`${child.ready.url}/api/v1/nodes`, child.ready.token, child.ready.caPem)) as { items: unknown[] };
      assert.equal(nodes.items.length, 4);
    } finally {
      await child.stop();
    }
    assert.equal(child.running, false);
  });

  it('reports why it could not start', async () => {
    await assert.rejects(SimulatorChild.start(launch, { nodes: 0, speed: 1, kubeconfigPath: join(folder, 'x') }), /exited before it was ready \(exit code 2\): simulator-server: --nodes must be a whole number > 0, got "0"/);
    assert.equal(existsSync(join(folder, 'x')), false);
  });
});

describe('batcher', () => {
  function manualTimers(): Timers & { fire(): void; pending: number } {
    let callbacks: (() => void)[] = [];
    return {
      setTimeout: (callback) => {
        callbacks.push(callback);
        return callbacks.length;
      },
      clearTimeout: () => {
        callbacks = [];
      },
      fire() {
        const due = callbacks;
        callbacks = [];
        due.forEach((c) => c());
      },
      get pending() {
        return callbacks.length;
      },
    };
  }

  it('hands over each changed key once per period, with one timer at a time', () => {
    const timers = manualTimers();
    const flushed: string[][] = [];
    const batcher = new Batcher<string>(250, (keys) => flushed.push([...keys]), timers);
    batcher.add('a');
    batcher.add('b');
    batcher.add('a');
    assert.equal(timers.pending, 1);
    assert.deepEqual(flushed, []);
    timers.fire();
    assert.deepEqual(flushed, [['a', 'b']]);
    batcher.add('c');
    batcher.flushNow();
    assert.deepEqual(flushed, [['a', 'b'], ['c']]);
    batcher.add('d');
    batcher.dispose();
    timers.fire();
    assert.equal(flushed.length, 2);
  });
});
