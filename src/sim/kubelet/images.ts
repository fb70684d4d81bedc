/**
 * Container image references as containerd sees them, and the simulator's registry: which images
 * exist (see docs/simulator-failures.md), which of them the simulator only assumes to exist, how
 * big they are and what their digests are. Sizes and digests are derived from the name, so every
 * node and every run agree.
 */

export interface ImageReference {
  /** As written in the pod spec, e.g. `nginx:1.25`. */
  original: string;
  /** Registry host, `docker.io` when none was written. */
  domain: string;
  /** Whether the spec named the registry host itself. */
  explicitDomain: boolean;
  /** Repository path inside the registry, e.g. `library/nginx`. */
  path: string;
  tag?: string;
  digest?: string;
}

export type ImageParseResult = { ok: true; reference: ImageReference } | { ok: false; error: string };

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-fA-F0-9]{32,}$/;

/** `reference.ParseNormalizedNamed`, reduced to what decides identity and validity. */
export function parseImageReference(image: string): ImageParseResult {
  const invalid = { ok: false as const, error: 'invalid reference format' };
  if (!image) return invalid;
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return invalid;
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return invalid;
  }
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  const explicitDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost' || first.toLowerCase() !== first);
  const domain = explicitDomain ? first : 'docker.io';
  let path = explicitDomain ? rest.slice(slash + 1) : rest;
  if (domain === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  if (path.toLowerCase() !== path) return { ok: false, error: `invalid reference format: repository name (${path}) must be lowercase` };
  if (!path.split('/').every((component) => PATH_COMPONENT.test(component))) return invalid;
  return { ok: true, reference: { original: image, domain, explicitDomain, path, tag, digest } };
}

/** Normalized names by the reference as written: every pod of a Deployment shares one string. */
const normalizedNames = new Map<string, string>();

/** The name containerd stores and reports, e.g. `docker.io/library/nginx:1.25`. */
export function normalizedImageName(ref: ImageReference): string {
  let name = normalizedNames.get(ref.original);
  if (name === undefined) {
    const repository = `${ref.domain}/${ref.path}`;
    name = ref.digest ? `${repository}@${ref.digest}` : `${repository}:${ref.tag ?? 'latest'}`;
    if (normalizedNames.size >= 10_000) normalizedNames.clear();
    normalizedNames.set(ref.original, name);
  }
  return name;
}

export function repositoryName(ref: ImageReference): string {
  return `${ref.domain}/${ref.path}`;
}

/** The API server's default: `Always` for `:latest` or untagged images, `IfNotPresent` otherwise. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const parsed = parseImageReference(image);
  if (!parsed.ok) return 'IfNotPresent';
  const { tag, digest } = parsed.reference;
  if (digest) return 'IfNotPresent';
  return tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

const HEX_DIGIT_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
/** The character codes of a byte's two hex digits, by byte value. */
const HIGH_DIGIT_CODES = Array.from({ length: 256 }, (_, byte) => HEX_DIGIT_CODES[byte >>> 4]);
const LOW_DIGIT_CODES = Array.from({ length: 256 }, (_, byte) => HEX_DIGIT_CODES[byte & 15]);
/** Character codes of the string hex64 is building, reused from call to call. */
const hexCodes: number[] = [];

/** Writes the 8 hex digits of a 32-bit word into `codes` at `at`. */
function writeHexWord(codes: number[], at: number, word: number): void {
  for (let shift = 24; shift >= 0; shift -= 8) {
    const byte = (word >>> shift) & 255;
    codes[at++] = HIGH_DIGIT_CODES[byte];
    codes[at++] = LOW_DIGIT_CODES[byte];
  }
}

/** 64 hex digits derived from `text`, after `prefix`: a stand-in for a sha256 digest or a container id. */
export function hex64(text: string, prefix = ''): string {
  // Two independent 32-bit hashes (fnv1a with two seeds, in one pass) seed a small generator:
  // 64 bits of identity, cheap to expand.
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193);
  }
  a >>>= 0;
  b >>>= 0;
  const codes = hexCodes;
  let at = 0;
  for (; at < prefix.length; at++) codes[at] = prefix.charCodeAt(at);
  for (let i = 0; i < 8; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | b);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | a);
    b = (b ^ t ^ (t >>> 14)) >>> 0;
    writeHexWord(codes, at, b);
    at += 8;
  }
  if (codes.length !== at) codes.length = at;
  // Made from character codes in one go: a string grown piece by piece is kept in memory as a chain of its pieces.
  return String.fromCharCode.apply(null, codes);
}

/** Compressed sizes of well-known images, in bytes (what containerd reports after a pull). */
const KNOWN_SIZES: Record<string, number> = {
  'docker.io/library/nginx': 72_123_456,
  'docker.io/library/busybox': 2_155_000,
  'docker.io/library/alpine': 3_652_000,
  'docker.io/library/redis': 45_800_000,
  'docker.io/library/postgres': 158_600_000,
  'docker.io/library/mysql': 171_400_000,
  'docker.io/library/httpd': 58_200_000,
  'docker.io/library/memcached': 35_100_000,
  'docker.io/library/ubuntu': 29_750_000,
  'docker.io/library/debian': 48_500_000,
  'docker.io/library/python': 392_000_000,
  'docker.io/library/node': 398_000_000,
  'docker.io/library/golang': 294_000_000,
  'docker.io/library/traefik': 49_900_000,
  'docker.io/library/caddy': 20_300_000,
  'registry.k8s.io/pause': 320_368,
  'registry.k8s.io/kube-proxy': 30_906_000,
  'registry.k8s.io/coredns/coredns': 18_562_000,
  'registry.k8s.io/e2e-test-images/agnhost': 51_380_000,
  'docker.io/kindest/kindnetd': 39_008_000,
};

/** Images seen so far: sizes and digests are asked for on every pull and every node. */
const sizeCache = new Map<string, number>();
const idCache = new Map<string, string>();
const CACHE_LIMIT = 10_000;

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** A deterministic image size: a known image's, varied a little by tag, or 10–250 MB by name. */
export function imageSizeBytes(ref: ImageReference): number {
  const name = normalizedImageName(ref);
  return sizeCache.get(name) ?? remember(sizeCache, name, computeImageSize(ref, name));
}

function computeImageSize(ref: ImageReference, name: string): number {
  const repository = repositoryName(ref);
  const base = KNOWN_SIZES[repository];
  const variant = fnv1a(name) / 0xffffffff;
  if (base !== undefined) return ref.tag === undefined || variant < 0.5 ? base : Math.round(base * (0.95 + variant * 0.1));
  return Math.round(10_000_000 + (fnv1a(repository) / 0xffffffff) * 240_000_000);
}

/** `docker.io/library/nginx@sha256:…`, the imageID a container status reports. */
export function imageId(ref: ImageReference): string {
  const name = normalizedImageName(ref);
  return idCache.get(name) ?? remember(idCache, name, `${repositoryName(ref)}@${ref.digest ?? `sha256:${hex64(name)}`}`);
}

/** Words that make an image reference unresolvable (see docs/simulator-failures.md). */
export const MISSING_IMAGE_WORDS = ['doesnotexist', 'does-not-exist', 'nonexistent', 'non-existent', 'nonexisting', 'non-existing', 'notfound', 'not-found', 'invalid'] as const;
/** Reserved top-level domains (RFC 2606 / RFC 6761) that never resolve. */
const UNRESOLVABLE_TLDS = ['.invalid', '.test', '.example', '.local'];

function mentionsMissing(text: string): boolean {
  const lower = text.toLowerCase();
  return MISSING_IMAGE_WORDS.some((word) => lower.includes(word));
}

export interface PullFailure {
  /** The gRPC code containerd answers with. */
  code: 'NotFound' | 'Unknown';
  /** The error as the kubelet prints it (`rpc error: code = … desc = …`). */
  message: string;
}

/** The DNS server a node resolves registry hosts with (the kind network's gateway). */
const NODE_RESOLVER = '172.18.0.1:53';

/**
 * Whether the simulated registry refuses this image, and with which containerd error:
 * an unresolvable registry host, a repository that does not exist, or a tag that does not exist.
 */
export function pullFailure(ref: ImageReference): PullFailure | undefined {
  const name = normalizedImageName(ref);
  const prefix = (code: PullFailure['code']): string => `rpc error: code = ${code} desc = failed to pull and unpack image "${name}": failed to resolve reference "${name}": `;
  const host = ref.domain.replace(/:\d+$/, '');
  if (ref.explicitDomain && (mentionsMissing(host) || UNRESOLVABLE_TLDS.some((tld) => host.endsWith(tld)))) {
    const manifest = ref.digest ?? ref.tag ?? 'latest';
    return {
      code: 'Unknown',
      message: `${prefix('Unknown')}failed to do request: Head "https://${ref.domain}/v2/${ref.path}/manifests/${manifest}": dial tcp: lookup ${host} on ${NODE_RESOLVER}: no such host`,
    };
  }
  if (mentionsMissing(ref.path)) {
    if (ref.domain === 'docker.io') {
      return { code: 'Unknown', message: `${prefix('Unknown')}pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed` };
    }
    return { code: 'NotFound', message: `${prefix('NotFound')}${name}: not found` };
  }
  if (ref.tag !== undefined && mentionsMissing(ref.tag)) {
    return { code: 'NotFound', message: `${prefix('NotFound')}${name}: not found` };
  }
  return undefined;
}

/**
 * Docker Official Images: the repositories of Docker Hub's `library` namespace, which only Docker
 * publishes (so `docker.io/library/my-app` or a misspelt `ngnix` is not among them). The common
 * ones, not the whole catalogue: an image missing here is only marked assumed, one wrongly here
 * would pass unmarked.
 */
const DOCKER_OFFICIAL_IMAGES = new Set([
  'adminer', 'almalinux', 'alpine', 'amazoncorretto', 'amazonlinux', 'arangodb', 'archlinux', 'bash', 'bonita', 'buildpack-deps', 'busybox',
  'caddy', 'cassandra', 'centos', 'chronograf', 'clojure', 'composer', 'consul', 'couchbase', 'couchdb', 'debian', 'docker', 'drupal',
  'eclipse-mosquitto', 'eclipse-temurin', 'elasticsearch', 'elixir', 'erlang', 'fedora', 'flink', 'fluentd', 'gcc', 'ghost', 'golang', 'gradle',
  'groovy', 'haproxy', 'haskell', 'hello-world', 'httpd', 'influxdb', 'jetty', 'joomla', 'julia', 'kibana', 'kong', 'logstash', 'mariadb',
  'maven', 'mediawiki', 'memcached', 'mongo', 'mongo-express', 'mysql', 'nats', 'neo4j', 'nextcloud', 'nginx', 'node', 'odoo', 'openjdk',
  'oraclelinux', 'percona', 'perl', 'php', 'phpmyadmin', 'postgres', 'pypy', 'python', 'r-base', 'rabbitmq', 'redis', 'redmine', 'registry',
  'rockylinux', 'ruby', 'rust', 'solr', 'sonarqube', 'swift', 'telegraf', 'tomcat', 'traefik', 'ubuntu', 'varnish', 'wordpress', 'zookeeper',
]);

/** Registries whose every image the simulator takes to exist: the Kubernetes project's own, which its docs name. */
const KNOWN_REGISTRIES = new Set(['registry.k8s.io']);

/** Why a pull the simulator lets succeed is only assumed to succeed. */
export const ASSUMED_PULL_REASON = 'the simulator reaches no registry';

/**
 * Whether the simulator knows this image's repository exists: a Docker Official Image, an image of
 * registry.k8s.io, or one whose size it knows (the images every kind node starts with). The tag
 * is not checked here: see `unknownTagReason` (a tag that names a missing word is refused by
 * `pullFailure` all the same).
 */
export function isKnownImage(ref: ImageReference): boolean {
  if (KNOWN_REGISTRIES.has(ref.domain)) return true;
  if (ref.domain === 'docker.io' && ref.path.startsWith('library/') && DOCKER_OFFICIAL_IMAGES.has(ref.path.slice('library/'.length))) return true;
  return KNOWN_SIZES[repositoryName(ref)] !== undefined;
}

/**
 * Words the tags of Docker Official Images are made of, besides versions: variants (`alpine`,
 * `slim`, `perl`), the distributions and releases they build on (`bookworm`, `jammy`), channels
 * (`latest`, `stable`, `lts`) and Node.js's release names. A part may carry a version (`alpine3.20`,
 * `jdk21`, `php8.3`).
 */
const OFFICIAL_TAG_WORDS = new Set([
  'latest', 'stable', 'mainline', 'edge', 'lts', 'current', 'rc', 'beta', 'alpha', 'preview',
  'alpine', 'slim', 'perl', 'otel', 'musl', 'glibc', 'uclibc', 'fpm', 'apache', 'cli', 'zts', 'management', 'builder', 'oracle', 'debian', 'ubuntu',
  'bookworm', 'bullseye', 'buster', 'stretch', 'trixie', 'bionic', 'focal', 'jammy', 'noble', 'oracular', 'plucky',
  'jdk', 'jre', 'temurin', 'eclipse', 'openjdk', 'corretto', 'graalvm', 'php', 'python', 'node', 'windowsservercore', 'nanoserver', 'ltsc',
  'argon', 'boron', 'carbon', 'dubnium', 'erbium', 'fermium', 'gallium', 'hydrogen', 'iron', 'jod', 'krypton',
]);

/** A tag's part: a version (`1.27.2`, `v3`), a known word, or a word with its version. */
const TAG_PART = /^(?:v?\d+(?:\.\d+)*|([a-z]+)v?\d*(?:\.\d+)*)$/;

/**
 * Beyond these releases a known repository's version tags do not go (checked in late 2026, with
 * room for a few releases): `nginx:1.255` or `redis:70` is a typo a registry answers with "not
 * found". A ceiling with a minor limits the minor of its own major only.
 */
const VERSION_CEILINGS: Readonly<Record<string, { major: number; minor?: number }>> = {
  nginx: { major: 1, minor: 40 },
  busybox: { major: 1, minor: 45 },
  alpine: { major: 3, minor: 30 },
  httpd: { major: 2, minor: 6 },
  python: { major: 3, minor: 16 },
  golang: { major: 1, minor: 30 },
  perl: { major: 5, minor: 46 },
  memcached: { major: 1, minor: 8 },
  redis: { major: 9 },
  postgres: { major: 19 },
  mysql: { major: 10 },
  node: { major: 27 },
  bash: { major: 6 },
  debian: { major: 14 },
  ubuntu: { major: 27 },
};

/**
 * Why a pull of a Docker Official Image is an assumption although its repository is known: its
 * tag is not one the simulator can read as real (a word it does not know, or a version past the
 * repository's releases). Undefined for other images, digests and tags it reads as real; it never
 * refuses the pull (the tag may be new), it only says the journey rests on it.
 */
export function unknownTagReason(ref: ImageReference): string | undefined {
  if (ref.domain !== 'docker.io' || !ref.path.startsWith('library/') || ref.tag === undefined || ref.digest !== undefined) return undefined;
  const name = ref.path.slice('library/'.length);
  if (!DOCKER_OFFICIAL_IMAGES.has(name)) return undefined;
  const unknown = `the simulator knows no tag ${ref.tag} of ${name}`;
  const parts = ref.tag.toLowerCase().split(/[-_]/);
  for (const part of parts) {
    const match = TAG_PART.exec(part);
    if (!match || (match[1] !== undefined && !OFFICIAL_TAG_WORDS.has(match[1]))) return unknown;
  }
  const version = /^v?(\d+)(?:\.(\d+))?/.exec(parts[0]);
  const ceiling = VERSION_CEILINGS[name];
  if (version && ceiling) {
    const major = Number(version[1]);
    const minor = version[2] === undefined ? undefined : Number(version[2]);
    if (major > ceiling.major || (major === ceiling.major && ceiling.minor !== undefined && minor !== undefined && minor > ceiling.minor)) return unknown;
  }
  return undefined;
}

/** An image as a container names it, with everything the kubelet and the runtime derive from its reference. */
export interface ResolvedImage {
  reference: ImageReference;
  /** The name containerd stores and reports, e.g. `docker.io/library/nginx:1.25`. */
  name: string;
  /** The imageID a container status reports. */
  id: string;
  sizeBytes: number;
  /** Why the simulated registry refuses to serve it, if it does. */
  failure: PullFailure | undefined;
  /**
   * Why a successful pull of it is an assumption (`ASSUMED_PULL_REASON`, or `unknownTagReason`'s):
   * undefined when the registry refuses it or the simulator knows it exists (`isKnownImage`, with
   * a tag it reads as real).
   */
  assumedPull: string | undefined;
}

export type ImageLookup = { ok: true; image: ResolvedImage } | { ok: false; error: string };

/** Lookups by the image string as written: every pod of a Deployment names its image the same way. */
const lookupCache = new Map<string, ImageLookup>();

/** `parseImageReference` and what follows from the reference, worked out once per image string. */
export function lookupImage(image: string): ImageLookup {
  return lookupCache.get(image) ?? remember(lookupCache, image, resolveImage(image));
}

function resolveImage(image: string): ImageLookup {
  const parsed = parseImageReference(image);
  if (!parsed.ok) return Object.freeze({ ok: false, error: parsed.error });
  const reference = Object.freeze(parsed.reference);
  const failure = pullFailure(reference);
  const resolved: ResolvedImage = {
    reference,
    name: normalizedImageName(reference),
    id: imageId(reference),
    sizeBytes: imageSizeBytes(reference),
    failure,
    assumedPull: failure ? undefined : isKnownImage(reference) ? unknownTagReason(reference) : ASSUMED_PULL_REASON,
  };
  return Object.freeze({ ok: true, image: Object.freeze(resolved) });
}
