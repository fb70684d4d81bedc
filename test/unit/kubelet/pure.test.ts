import assert from 'node:assert/strict';
import type { Container } from '../../../src/core/k8s';
import { Backoff } from '../../../src/sim/kubelet/backoff';
import { assumedRunningReason, exitsOnSigterm, plannedExit } from '../../../src/sim/kubelet/container-behaviour';
import { formatGoDuration } from '../../../src/sim/kubelet/go-duration';
import { defaultPullPolicy, hex64, imageId, imageSizeBytes, isKnownImage, lookupImage, normalizedImageName, parseImageReference, pullFailure, unknownTagReason, type ImageReference } from '../../../src/sim/kubelet/images';

function ref(image: string): ImageReference {
  const parsed = parseImageReference(image);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.reference;
}

function container(command?: string[], args?: string[]): Container {
  return { name: 'app', image: 'busybox', command, args };
}

describe('kubelet pure parts', () => {
  describe('formatGoDuration', () => {
    it('prints durations as Go does', () => {
      assert.equal(formatGoDuration(0), '0s');
      assert.equal(formatGoDuration(441), '441ms');
      assert.equal(formatGoDuration(1200), '1.2s');
      assert.equal(formatGoDuration(5870), '5.87s');
      assert.equal(formatGoDuration(10_000), '10s');
      assert.equal(formatGoDuration(80_000), '1m20s');
      assert.equal(formatGoDuration(300_000), '5m0s');
      assert.equal(formatGoDuration(3_723_400), '1h2m3.4s');
    });

    it('drops only the trailing zeros of the milliseconds', () => {
      assert.equal(formatGoDuration(1005), '1.005s');
      assert.equal(formatGoDuration(1050), '1.05s');
      assert.equal(formatGoDuration(1500), '1.5s');
      assert.equal(formatGoDuration(1010), '1.01s');
      assert.equal(formatGoDuration(61_001), '1m1.001s');
    });

    it('agrees with the digit-trimming definition for every millisecond of a second', () => {
      for (let ms = 1; ms < 1000; ms++) {
        const expected = `2.${String(ms).padStart(3, '0').replace(/0+$/, '')}s`;
        assert.equal(formatGoDuration(2000 + ms), expected);
      }
    });
  });

  describe('Backoff', () => {
    it('starts at 10 s, doubles per failure and caps at 5 min', () => {
      const backoff = new Backoff();
      const delays: number[] = [];
      for (let i = 0; i < 8; i++) {
        backoff.next('k', i * 1000, i * 1000);
        delays.push(backoff.get('k'));
      }
      assert.deepEqual(delays, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    });

    it('measures restart back-off from the container finish time and pull back-off from the last failure', () => {
      const backoff = new Backoff();
      backoff.next('k', 1000, 1500);
      assert.equal(backoff.isInBackOffSince('k', 1000, 10_999), true);
      assert.equal(backoff.isInBackOffSince('k', 1000, 11_000), false);
      assert.equal(backoff.isInBackOffSinceUpdate('k', 11_499), true);
      assert.equal(backoff.isInBackOffSinceUpdate('k', 11_500), false);
    });

    it('forgets an item quiet for twice the cap', () => {
      const backoff = new Backoff();
      backoff.next('k', 0, 0);
      backoff.next('k', 1000, 1000);
      assert.equal(backoff.get('k'), 20_000);
      backoff.next('k', 1000 + 600_001, 1000 + 600_001);
      assert.equal(backoff.get('k'), 10_000);
    });
  });

  describe('image references', () => {
    it('normalizes names the way containerd stores them', () => {
      assert.equal(normalizedImageName(ref('nginx')), 'docker.io/library/nginx:latest');
      assert.equal(normalizedImageName(ref('nginx:1.25')), 'docker.io/library/nginx:1.25');
      assert.equal(normalizedImageName(ref('bitnami/redis:7.2')), 'docker.io/bitnami/redis:7.2');
      assert.equal(normalizedImageName(ref('registry.k8s.io/pause:3.10')), 'registry.k8s.io/pause:3.10');
      assert.equal(normalizedImageName(ref('localhost:5000/app:v1')), 'localhost:5000/app:v1');
      const digest = `sha256:${'a'.repeat(64)}`;
      assert.equal(normalizedImageName(ref(`nginx@${digest}`)), `docker.io/library/nginx@${digest}`);
    });

    it('rejects upper-case repositories with the reference library message', () => {
      assert.deepEqual(parseImageReference('Nginx:1.25'), { ok: false, error: 'invalid reference format: repository name (library/Nginx) must be lowercase' });
      assert.equal(parseImageReference('nginx:bad tag').ok, false);
    });

    it('defaults the pull policy from the tag', () => {
      assert.equal(defaultPullPolicy('nginx'), 'Always');
      assert.equal(defaultPullPolicy('nginx:latest'), 'Always');
      assert.equal(defaultPullPolicy('nginx:1.25'), 'IfNotPresent');
    });

    it('gives every image a stable size, nginx about 72 MB', () => {
      assert.equal(imageSizeBytes(ref('nginx:1.25')), imageSizeBytes(ref('nginx:1.25')));
      const nginx = imageSizeBytes(ref('nginx:1.25'));
      assert.ok(nginx > 65_000_000 && nginx < 80_000_000, String(nginx));
      const unknown = imageSizeBytes(ref('example/app:v3'));
      assert.ok(unknown >= 10_000_000 && unknown <= 250_000_000, String(unknown));
    });
  });

  describe('hex64', () => {
    /** The expansion as first written (hash per seed, digits joined): container and image ids must not change. */
    function referenceHex64(text: string, prefix = ''): string {
      const fnv1a = (seed: number): number => {
        let hash = seed >>> 0;
        for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
        return hash;
      };
      let a = fnv1a(0x811c9dc5);
      let b = fnv1a(0x9e3779b9);
      const parts = [prefix];
      for (let i = 0; i < 8; i++) {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | b);
        t ^= t + Math.imul(t ^ (t >>> 7), 61 | a);
        b = (b ^ t ^ (t >>> 14)) >>> 0;
        parts.push(b.toString(16).padStart(8, '0'));
      }
      return parts.join('');
    }

    it('expands a text to the same 64 hex digits as the reference, with or without a prefix', () => {
      for (const text of ['', 'a', 'docker.io/library/nginx:1.25', '0d6c2a1e-5f3b-4c7d-9e8f-1a2b3c4d5e6f/app/0', 'machine/node-1', 'ünïcödé']) {
        assert.equal(hex64(text), referenceHex64(text));
        assert.equal(hex64(text, 'containerd://'), referenceHex64(text, 'containerd://'));
      }
      assert.match(hex64('x', 'containerd://'), /^containerd:\/\/[0-9a-f]{64}$/);
    });
  });

  describe('image lookups', () => {
    it('resolves an image once, with what the reference functions derive from it', () => {
      const lookup = lookupImage('nginx:1.25');
      assert.equal(lookupImage('nginx:1.25'), lookup);
      assert.ok(lookup.ok);
      const reference = ref('nginx:1.25');
      assert.deepEqual(lookup.image, { reference, name: normalizedImageName(reference), id: imageId(reference), sizeBytes: imageSizeBytes(reference), failure: undefined, assumedPull: undefined });
      assert.ok(Object.isFrozen(lookup.image));
    });

    it('carries the pull failure and the parse error', () => {
      const missing = lookupImage('nginx:doesnotexist');
      assert.ok(missing.ok);
      assert.deepEqual(missing.image.failure, pullFailure(ref('nginx:doesnotexist')));
      assert.deepEqual(lookupImage('Nginx:1.25'), { ok: false, error: 'invalid reference format: repository name (library/Nginx) must be lowercase' });
    });
  });

  describe('images the simulator knows exist', () => {
    it('knows Docker Official Images, registry.k8s.io and the images of a kind node, whatever the tag', () => {
      for (const image of ['nginx:1.25', 'nginx', 'docker.io/library/busybox:1.36', 'docker.io/nginx:9.9', 'python:3', 'perl', 'postgres@sha256:0123456789abcdef0123456789abcdef', 'registry.k8s.io/nginx-slim:0.7', 'registry.k8s.io/e2e-test-images/agnhost:2.40', 'docker.io/kindest/kindnetd:v20250214-acbabc1a']) {
        assert.equal(isKnownImage(ref(image)), true, image);
      }
    });

    it('does not know other repositories: a misspelt official name, Docker Hub users, other registries', () => {
      for (const image of ['ngnix:1.25', 'docker.io/library/my-app', 'acme/app:1.0', 'polinux/stress', 'myregistry.example.com/app:v1', 'gcr.io/google-samples/hello-app:2.0', 'quay.io/fluentd_elasticsearch/fluentd:v5.0.1', 'k8s.gcr.io/pause:2.0']) {
        assert.equal(isKnownImage(ref(image)), false, image);
      }
    });

    it('marks a successful pull of an unknown image as assumed, and nothing else', () => {
      const lookup = (image: string): string | undefined => {
        const found = lookupImage(image);
        assert.ok(found.ok);
        return found.image.assumedPull;
      };
      assert.equal(lookup('acme/app:1.0'), 'the simulator reaches no registry');
      assert.equal(lookup('nginx:1.25'), undefined);
      assert.equal(lookup('acme/nonexistent-app:1.0'), undefined, 'refused, so nothing assumed');
      assert.equal(lookup('nginx:1.255'), 'the simulator knows no tag 1.255 of nginx');
    });

    it('reads the tags of Docker Official Images: versions up to the repository’s releases and the words their variants use', () => {
      const real = [
        'nginx:1.14.2', 'nginx:1.9.2', 'nginx:latest', 'nginx:1.27.0-alpine-slim', 'nginx:stable-alpine-perl', 'nginx:mainline-otel', 'busybox:1.36-musl', 'busybox:1.27.2',
        'python:3.12-slim-bookworm', 'python:2.7', 'python:3.12-windowsservercore-ltsc2022', 'node:20-alpine3.19', 'node:lts-iron', 'redis:6.0.5', 'redis:7.2-alpine', 'mysql:5.6', 'mysql:8.0-oracle',
        'postgres:16.2-alpine3.19', 'golang:1.23-bookworm', 'perl:5.34.0', 'bash:5', 'ubuntu:24.04', 'ubuntu:noble-20240429', 'debian:bookworm-20240408-slim', 'alpine:edge', 'alpine:3.20',
        'httpd:2.4-alpine', 'wordpress:6-php8.2-apache', 'eclipse-temurin:21-jdk-jammy', 'traefik:v3.1', 'nginx', 'nginx@sha256:0123456789abcdef0123456789abcdef', 'acme/app:whatever', 'registry.k8s.io/etcd:3.5.1-0',
      ];
      for (const image of real) assert.equal(unknownTagReason(ref(image)), undefined, image);
      const typos = { 'nginx:1.255': '1.255', 'nginx:2.0': '2.0', 'nginx:lates': 'lates', 'redis:70': '70', 'python:3.120-slim': '3.120-slim', 'busybox:1.36-mus': '1.36-mus', 'docker.io/library/alpine:3.99': '3.99' };
      for (const [image, tag] of Object.entries(typos)) assert.equal(unknownTagReason(ref(image)), `the simulator knows no tag ${tag} of ${ref(image).path.slice('library/'.length)}`, image);
    });
  });

  describe('pull failures', () => {
    it('lets ordinary images through', () => {
      assert.equal(pullFailure(ref('nginx:1.25')), undefined);
      assert.equal(pullFailure(ref('ghcr.io/org/app:v1')), undefined);
    });

    it('answers a missing tag with containerd NotFound', () => {
      assert.deepEqual(pullFailure(ref('nginx:doesnotexist')), {
        code: 'NotFound',
        message: 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found',
      });
      assert.equal(pullFailure(ref('nginx:nonexistent'))?.code, 'NotFound');
      assert.equal(pullFailure(ref('nginx:nonexisting'))?.code, 'NotFound');
    });

    it('refuses the docs’ non-existing-repo/non-existing-image as Docker Hub does', () => {
      assert.equal(
        pullFailure(ref('non-existing-repo/non-existing-image:example'))?.message,
        'rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/non-existing-repo/non-existing-image:example": failed to resolve reference "docker.io/non-existing-repo/non-existing-image:example": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed',
      );
    });

    it('answers a missing Docker Hub repository with pull access denied', () => {
      assert.equal(
        pullFailure(ref('invalid-image'))?.message,
        'rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/invalid-image:latest": failed to resolve reference "docker.io/library/invalid-image:latest": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed',
      );
    });

    it('answers an unresolvable registry host with a DNS error', () => {
      assert.equal(
        pullFailure(ref('registry.invalid/team/app:v1'))?.message,
        'rpc error: code = Unknown desc = failed to pull and unpack image "registry.invalid/team/app:v1": failed to resolve reference "registry.invalid/team/app:v1": failed to do request: Head "https://registry.invalid/v2/team/app/manifests/v1": dial tcp: lookup registry.invalid on 172.18.0.1:53: no such host',
      );
      assert.equal(pullFailure(ref('nonexistent.example.com/app:v1'))?.code, 'Unknown');
    });
  });

  describe('container behaviour', () => {
    it('runs the image entrypoint and unknown programs until stopped', () => {
      assert.equal(plannedExit({ name: 'web', image: 'nginx:1.25' }), undefined);
      assert.equal(plannedExit({ name: 'app', image: 'registry.example/team/app:1' }), undefined);
      assert.equal(plannedExit(container(['nginx', '-g', 'daemon off;'])), undefined);
      assert.equal(plannedExit(container(['sh', '-c', 'while true; do sleep 1; done'])), undefined);
      assert.equal(plannedExit(container(['sleep', 'infinity'])), undefined);
    });

    it("ends a shell image started without command or args at once, as its shell finds no terminal", () => {
      assert.deepEqual(plannedExit(container()), { exitCode: 0, runMs: 0 });
      assert.deepEqual(plannedExit({ name: 'py', image: 'docker.io/library/python:3.12' }), { exitCode: 0, runMs: 0 });
      assert.equal(plannedExit({ ...container(), stdin: true, tty: true }), undefined);
    });

    it("reads nginx's args as its command line when they start with nginx, as its entrypoint runs them", () => {
      assert.deepEqual(plannedExit({ name: 'web', image: 'nginx:1.16.1', args: ['nginx', '-T'] }), { exitCode: 0, runMs: 0 });
      assert.equal(plannedExit({ name: 'web', image: 'nginx', args: ['nginx', '-g', 'daemon off;'] }), undefined);
    });

    it("reads a shell image's args as its whole command line (the image has no entrypoint)", () => {
      assert.deepEqual(plannedExit(container(undefined, ['sh', '-c', 'echo hi; exit 2'])), { exitCode: 2, runMs: 0 });
      assert.equal(plannedExit({ name: 'web', image: 'nginx', args: ['sh', '-c', 'exit 2'] }), undefined);
    });

    it('says why a container kept running is an assumption, and only then', () => {
      assert.equal(assumedRunningReason({ name: 'web', image: 'nginx:1.25' }), undefined);
      assert.equal(assumedRunningReason(container(['sh', '-c', 'while true; do sleep 1; done'])), undefined);
      assert.equal(assumedRunningReason(container(['nginx', '-g', 'daemon off;'])), undefined);
      assert.equal(assumedRunningReason(container(['sh', '-c', 'exit 1'])), undefined);
      assert.equal(assumedRunningReason({ name: 'web', image: 'nginx', args: ['nginx', '-T'] }), undefined, 'nginx -T is read: it exits');
      assert.equal(assumedRunningReason({ name: 'web', image: 'nginx', args: ['--verbose'] }), 'the entrypoint of image nginx with args --verbose is not readable by the simulator');
      assert.equal(assumedRunningReason({ name: 'app', image: 'registry.example/team/app:1' }), 'no command: the entrypoint of image registry.example/team/app:1 is not readable by the simulator');
      assert.equal(assumedRunningReason(container(['python', 'server.py'])), 'command not readable by the simulator: python server.py');
    });

    it('follows exit codes, false, true and sleeps', () => {
      assert.deepEqual(plannedExit(container(['sh', '-c', 'exit 1'])), { exitCode: 1, runMs: 0 });
      assert.deepEqual(plannedExit(container(['/bin/sh', '-c'], ['echo starting; sleep 5; exit 3'])), { exitCode: 3, runMs: 5000 });
      assert.deepEqual(plannedExit(container(['false'])), { exitCode: 1, runMs: 0 });
      assert.deepEqual(plannedExit(container(['sh', '-c', 'sleep 2 && true'])), { exitCode: 0, runMs: 2000 });
      assert.deepEqual(plannedExit(container(['sleep', '3600'])), { exitCode: 0, runMs: 3_600_000 });
      assert.deepEqual(plannedExit(container(['bash', '-ec', 'echo done; exit 300'])), { exitCode: 44, runMs: 0 });
    });

    it('knows which processes ignore SIGTERM', () => {
      assert.equal(exitsOnSigterm(container()), true);
      assert.equal(exitsOnSigterm(container(['sleep', '3600'])), false);
      assert.equal(exitsOnSigterm(container(['sh', '-c', 'sleep 3600'])), false);
    });
  });
});
