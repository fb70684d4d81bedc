/** The CLI timeline of journeys beyond Deployments: each kind's goal, counts and pods in its order. */
import assert from 'node:assert/strict';
import { renderJourney } from '../../../src/core/journey/render-text';
import { cronJobJourney, failedJobJourney, jobJourney, statefulSetJourney } from './kind-journeys';

function summaryLine(text: string, name: string): string | undefined {
  return text.split('\n').find((line) => line.startsWith(`  ${name.padEnd(10)}`));
}

describe('CLI timeline of workload kinds beyond Deployments', () => {
  it('Job: its tries with their exit codes, its counts, and apply → Job Complete', () => {
    const text = renderJourney(jobJourney());
    const lines = text.split('\n');
    assert.match(lines.find((l) => l.startsWith('Job default/pi')) ?? '', /\[complete\] {2}1\/1 succeeded · 1 failed of backoffLimit 4 · perl:5\.34\.0$/);
    const pods = lines.filter((l) => /^\s+Pod default\//.test(l));
    assert.match(pods[0], /pi-abcde {2}\[failed\] {2}on node-1 · Failed · 0\/1 ready · Error, exit code 1$/);
    assert.match(pods[1], /pi-fghij {2}\[complete\] {2}on node-2 · Succeeded · 0\/1 ready · Completed, exit code 0$/);
    assert.equal(summaryLine(text, 'job'), '  job       1/1 succeeded · 1 failed (backoffLimit 4) · 0 active');
    assert.match(summaryLine(text, 'pods') ?? '', /^ {2}pods {6}2 pods · /, 'a Job’s pods are not counted as ready ones');
    assert.match(summaryLine(text, 'total') ?? '', /^ {2}total {5}apply → Job Complete in 18\.3s$/);
  });

  it('Job: a failed Job has no total, and says upstream’s reason and message under it', () => {
    const text = renderJourney(failedJobJourney());
    assert.equal(summaryLine(text, 'total'), undefined);
    assert.match(text, /^ {2}! BackoffLimitExceeded since \+4\.400s: Job has reached the specified backoff limit$/m);
  });

  it('StatefulSet: pods in ordinal order, the revision, and apply → all pods ready', () => {
    const text = renderJourney(statefulSetJourney(12, undefined, true), { podsInFull: 11 });
    const pods = text.split('\n').filter((l) => /^\s+Pod default\//.test(l)).map((l) => /Pod default\/(\S+)/.exec(l)?.[1]);
    assert.deepEqual(pods, Array.from({ length: 11 }, (_, i) => `web-${i}`), 'web-10 after web-9, web-11 collapsed');
    assert.match(text, /^ {2}… 1 more pod \(1 complete\); stage times from the apply:$/m);
    assert.match(text.split('\n').find((l) => l.startsWith('StatefulSet default/web')) ?? '', /12\/12 ready · revision web-7b9b/);
    assert.match(summaryLine(text, 'total') ?? '', /^ {2}total {5}apply → all pods ready in /);
  });

  it('CronJob: its Jobs under it, and apply → first Job Complete', () => {
    const text = renderJourney(cronJobJourney());
    assert.match(text, /^ {2}Job default\/hello-29034242 {2}\[complete\] {2}1\/1 succeeded/m);
    assert.match(text, /^ {4}Pod default\/hello-29034242-x7k2p {2}\[complete\]/m);
    assert.equal(summaryLine(text, 'jobs'), '  jobs      1 created · 1 complete · 0 failed');
    assert.match(summaryLine(text, 'total') ?? '', /^ {2}total {5}apply → first Job Complete in 1m05s$/);
  });
});
