import assert from 'node:assert/strict';
import type { WatchEvent } from '../../src/core/k8s';
import { backoffDelay, DEFAULT_BACKOFF } from '../../src/cluster/backoff';
import { ClusterApiError, ClusterUnreachableError } from '../../src/cluster/errors';
import { Reflector, type ListResult, type StreamProblem } from '../../src/cluster/reflector';
import { expired, object, refuse, ScriptedIo, stream, type WatchScript } from './fake-io';

function run(lists: (ListResult | Error)[], watches: WatchScript[]) {
  const io = new ScriptedIo(lists, watches);
  const delivered: string[] = [];
  const events: WatchEvent[] = [];
  const problems: (StreamProblem | undefined)[] = [];
  const reflector = new Reflector({
    kind: 'Pod',
    apiVersion: 'v1',
    path: '/api/v1/namespaces/default/pods',
    list: io.list,
    watch: io.watch,
    delay: io.delay,
    now: () => 1000,
    deliver: (event) => {
      events.push(event);
      delivered.push(`${event.type} ${event.object.metadata?.name}@${event.object.metadata?.resourceVersion}`);
    },
    onProblem: (problem) => problems.push(problem),
  });
  reflector.start();
  return { io, reflector, delivered, events, problems };
}

const unreachable = (): ClusterUnreachableError => new ClusterUnreachableError('cannot reach the API server at https://127.0.0.1:6443: connect ECONNREFUSED 127.0.0.1:6443');

describe('cluster Reflector (list + watch of one collection)', () => {
  it('watches from the list, and after a broken connection resumes from the last resourceVersion seen', async () => {
    const { io, reflector, delivered, events } = run(
      [{ resourceVersion: '10', items: [object('a', '9')] }],
      [
        stream([['MODIFIED', object('a', '11')], ['BOOKMARK', { metadata: { resourceVersion: '15' } }]], unreachable()),
        stream([['ADDED', object('b', '16')]]),
      ],
    );
    await io.idle;
    await reflector.stop();
    assert.deepEqual(io.watchCalls, ['10', '15', '16']);
    assert.deepEqual(io.listCalls.length, 1);
    assert.deepEqual(delivered, ['ADDED a@9', 'MODIFIED a@11', 'ADDED b@16']);
    // Broken connection: back off; normal close after events: at once.
    assert.deepEqual(io.delays, [DEFAULT_BACKOFF.initialMs, 0]);
    assert.equal(events[0].object.kind, 'Pod', 'list items get their kind');
    assert.equal(events[0].object.apiVersion, 'v1');
  });

  it('relists on 410 Expired and delivers what changed meanwhile: modified, added, deleted, replaced', async () => {
    const { io, reflector, delivered, events } = run(
      [
        { resourceVersion: '10', items: [object('a', '5'), object('b', '6'), object('c', '7')] },
        { resourceVersion: '25', items: [object('a', '20'), object('c', '22', 'uid-c2'), object('d', '21')] },
      ],
      [stream([['ERROR', expired('10')]])],
    );
    await io.idle;
    await reflector.stop();
    assert.deepEqual(delivered, ['ADDED a@5', 'ADDED b@6', 'ADDED c@7', 'MODIFIED a@20', 'DELETED c@7', 'ADDED c@22', 'ADDED d@21', 'DELETED b@6']);
    // Its final state unknown, a vanished object is delivered by its identity.
    assert.deepEqual(events.at(-1)?.object, { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'b', namespace: 'default', uid: 'uid-b', resourceVersion: '6' } });
    assert.deepEqual(io.watchCalls, ['10', '25']);
    assert.equal(reflector.stats.expired, 1);
    assert.equal(reflector.stats.lists, 2);
    assert.deepEqual(io.delays, [0], 'the first relist is immediate');
  });

  it('relists when the watch request itself is answered 410', async () => {
    const { io, reflector } = run(
      [
        { resourceVersion: '10', items: [] },
        { resourceVersion: '30', items: [] },
      ],
      [refuse(new ClusterApiError(410, 'Expired', 'too old resource version: 10 (20)'))],
    );
    await io.idle;
    await reflector.stop();
    assert.deepEqual(io.watchCalls, ['10', '30']);
    assert.equal(reflector.stats.lists, 2);
  });

  it('backs off exponentially up to the cap while the server is unreachable, and starts over once events flow', async () => {
    const refusals = Array.from({ length: 9 }, () => refuse(unreachable()));
    const { io, reflector, problems } = run([{ resourceVersion: '1', items: [] }], [...refusals, stream([['ADDED', object('x', '2')]], unreachable()), refuse(unreachable())]);
    await io.idle;
    await reflector.stop();
    assert.deepEqual(io.delays, [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000, 800, 1600]);
    assert.deepEqual(io.watchCalls, ['1', '1', '1', '1', '1', '1', '1', '1', '1', '1', '2', '2']);
    assert.equal(problems[0]?.reason, 'Unreachable');
    assert.match(problems[0]!.message, /ECONNREFUSED/);
    assert.ok(problems.includes(undefined), 'the problem cleared while the watch was open');
    assert.equal(reflector.currentProblem?.reason, 'Unreachable');
    assert.equal(backoffDelay(DEFAULT_BACKOFF, 40), 30000);
  });

  it('resumes a watch the server closed at once, then backs off while watches keep bringing nothing', async () => {
    const { io, reflector } = run([{ resourceVersion: '7', items: [] }], [stream([]), stream([]), stream([]), stream([])]);
    await io.idle;
    await reflector.stop();
    assert.deepEqual(io.delays, [0, 800, 1600, 3200]);
    assert.deepEqual(io.watchCalls, ['7', '7', '7', '7', '7']);
  });

  it('treats an ERROR event other than 410 as a failure, backing off and resuming from the last resourceVersion', async () => {
    const { io, reflector } = run(
      [{ resourceVersion: '3', items: [] }],
      [stream([['ADDED', object('a', '4')], ['ERROR', { kind: 'Status', code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' }]])],
    );
    await io.idle;
    await reflector.stop();
    assert.deepEqual(io.watchCalls, ['3', '4']);
    assert.deepEqual(io.delays, [800]);
    assert.equal(reflector.stats.lists, 1);
    assert.match(reflector.currentProblem?.message ?? '', /etcdserver: request timed out/);
  });

  it('reports a forbidden collection, counts it as synced, retries slowly and clears the problem when allowed', async () => {
    const message = 'pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "default"';
    const { io, reflector, problems } = run([new ClusterApiError(403, 'Forbidden', message), { resourceVersion: '5', items: [object('a', '4')] }], []);
    await reflector.synced;
    await io.idle;
    await reflector.stop();
    assert.deepEqual(problems.map((p) => p && { reason: p.reason, message: p.message, code: p.code }), [{ reason: 'Forbidden', message, code: 403 }, undefined]);
    assert.deepEqual(io.delays, [DEFAULT_BACKOFF.maxMs]);
    assert.equal(io.listCalls.length, 2);
  });

  it('drops a watch event that repeats what is known', async () => {
    const { io, reflector, delivered } = run([{ resourceVersion: '10', items: [object('a', '9')] }], [stream([['MODIFIED', object('a', '9')], ['MODIFIED', object('a', '12')]])]);
    await io.idle;
    await reflector.stop();
    assert.deepEqual(delivered, ['ADDED a@9', 'MODIFIED a@12']);
  });

  it('stops: no request after stop()', async () => {
    const { io, reflector } = run([{ resourceVersion: '1', items: [] }], []);
    await io.idle;
    await reflector.stop();
    const calls = io.watchCalls.length + io.listCalls.length;
    await reflector.stop();
    assert.equal(io.watchCalls.length + io.listCalls.length, calls);
  });
});
