/**
 * The networking group's validation (pkg/apis/networking/validation/validation.go): Ingress
 * rules, paths and backends, IngressClass controllers, NetworkPolicy peers and ports, in
 * upstream's order of checks.
 */
import type { KubeObject, LabelSelector } from '../../../core/k8s';
import { goQuote, goScalar } from '../../../core/schema/go-format';
import { isDNS1123Subdomain, nameIsDNS1035Label, nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { addInvalid, forbidden, invalid, isSet, listOf, notSupported, objectOf, recordAt, required, str, type Errors, type Json } from '../field';
import { isJsonObject } from '../../../common/json';
import { checkLabelSelector, checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';
import { checkPortNumber, isValidPortName } from '../core/validation';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIPAddress(value: string): boolean {
  return IPV4.test(value) || (value.includes(':') && /^[0-9a-fA-F:.]+$/.test(value));
}

/** `IsWildcardDNS1123Subdomain`: `*.` followed by a subdomain. */
function wildcardHostProblems(host: string): readonly string[] {
  if (host.startsWith('*.') && isDNS1123Subdomain(host.slice(2)).length === 0) return [];
  return [
    "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ];
}

function checkIngressBackend(backend: Json, field: string, errors: Errors): void {
  const hasResource = isSet(backend.resource);
  const service = backend.service;
  if (hasResource && isSet(service)) {
    errors.push(invalid(field, '""', 'cannot set both resource and service backends'));
    return;
  }
  if (hasResource) {
    const resource = objectOf(backend.resource);
    if (str(resource.kind) === '') errors.push(required(`${field}.resource.kind`));
    if (str(resource.name) === '') errors.push(required(`${field}.resource.name`));
    return;
  }
  if (!isJsonObject(service)) {
    errors.push(invalid(field, '""', 'resource or service backend is required'));
    return;
  }
  const name = str(service.name);
  if (name === '') errors.push(required(`${field}.service.name`));
  else addInvalid(`${field}.service.name`, name, nameIsDNS1035Label(name, false), errors);
  const port = objectOf(service.port);
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) errors.push(invalid(field, '""', 'cannot set both port name & port number'));
  else if (portName !== '') addInvalid(`${field}.service.port.name`, portName, isValidPortName(portName), errors);
  else if (portNumber !== 0) checkPortNumber(portNumber, `${field}.service.port.number`, errors);
  else errors.push(required(field, 'port name or number is required'));
}

function checkIngressPath(path: Json, field: string, errors: Errors): void {
  if (!isSet(path.pathType)) {
    errors.push(required(`${field}.pathType`, 'pathType must be specified'));
    return;
  }
  const pathType = str(path.pathType);
  const value = str(path.path);
  switch (pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errors.push(invalid(`${field}.path`, goQuote(value), 'must be an absolute path'));
      if (value !== '') {
        for (const sequence of INVALID_PATH_SEQUENCES) if (value.includes(sequence)) errors.push(invalid(`${field}.path`, goQuote(value), `must not contain '${sequence}'`));
        for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errors.push(invalid(`${field}.path`, goQuote(value), `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value !== '' && !value.startsWith('/')) errors.push(invalid(`${field}.path`, goQuote(value), 'must be an absolute path'));
      break;
    default:
      errors.push(notSupported(`${field}.pathType`, goQuote(pathType), PATH_TYPES));
  }
  checkIngressBackend(objectOf(path.backend), `${field}.backend`, errors);
}

function checkIngressRules(rules: readonly unknown[], errors: Errors): void {
  for (let i = 0; i < rules.length; i++) {
    const rule = recordAt(rules, i);
    const field = `spec.rules[${i}]`;
    const host = str(rule.host);
    if (host !== '') {
      if (isIPAddress(host)) errors.push(invalid(`${field}.host`, goQuote(host), 'must be a DNS name, not an IP address'));
      addInvalid(`${field}.host`, host, host.includes('*') ? wildcardHostProblems(host) : isDNS1123Subdomain(host), errors);
    }
    if (!isSet(rule.http)) continue;
    const paths = listOf(objectOf(rule.http).paths);
    if (paths.length === 0) errors.push(required(`${field}.http.paths`));
    for (let j = 0; j < paths.length; j++) checkIngressPath(recordAt(paths, j), `${field}.http.paths[${j}]`, errors);
  }
}

/** ValidateIngressCreate / ValidateIngressUpdate: ValidateIngressSpec after the metadata. */
export function validateIngress(ingress: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(ingress, old, errors);
  else checkObjectMeta(ingress, true, nameIsDNSSubdomain, errors);
  const spec = objectOf(ingress.spec);
  const rules = listOf(spec.rules);
  if (rules.length === 0 && !isSet(spec.defaultBackend)) {
    errors.push(invalid('spec', '[]networking.IngressRule(nil)', 'either `defaultBackend` or `rules` must be specified'));
  }
  if (isSet(spec.defaultBackend)) checkIngressBackend(objectOf(spec.defaultBackend), 'spec.defaultBackend', errors);
  checkIngressRules(rules, errors);
  if (isSet(spec.ingressClassName)) addInvalid('spec.ingressClassName', str(spec.ingressClassName), nameIsDNSSubdomain(str(spec.ingressClassName), false), errors);
  return errors;
}

/** ValidateIngressClass: a domain-prefixed controller name (`IsDomainPrefixedPath`). */
export function validateIngressClass(ingressClass: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(ingressClass, old, errors);
  else checkObjectMeta(ingressClass, false, nameIsDNSSubdomain, errors);
  const controller = str(objectOf(ingressClass.spec).controller);
  if (controller.length > 250) errors.push({ reason: 'FieldValueTooLong', field: 'spec.controller', message: 'Too long: must have at most 250 bytes' });
  const slash = controller.indexOf('/');
  if (controller === '') errors.push(required('spec.controller'));
  else if (slash < 0) errors.push(invalid('spec.controller', goQuote(controller), 'must be a domain-prefixed path (such as "acme.io/foo")'));
  else addInvalid('spec.controller', controller.slice(0, slash), isDNS1123Subdomain(controller.slice(0, slash)), errors);
  if (old && controller !== str(objectOf(old.spec).controller)) errors.push(invalid('spec.controller', goQuote(controller), 'field is immutable'));
  return errors;
}

const POLICY_TYPES = ['Ingress', 'Egress'];
const POLICY_PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const CIDR = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\/(3[0-2]|[12]?\d)$|^[0-9a-fA-F:]+\/(12[0-8]|1[01]\d|[1-9]?\d)$/;
const CIDR_MESSAGE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function checkPolicyPort(port: Json, field: string, errors: Errors): void {
  if (isSet(port.protocol) && !POLICY_PROTOCOLS.includes(str(port.protocol))) errors.push(notSupported(`${field}.protocol`, goQuote(str(port.protocol)), POLICY_PROTOCOLS));
  const endPort = port.endPort;
  if (typeof port.port === 'number') {
    checkPortNumber(port.port, `${field}.port`, errors);
    if (typeof endPort === 'number') {
      if (endPort < port.port) errors.push(invalid(`${field}.endPort`, goScalar(port.port), 'must be greater than or equal to `port`'));
      checkPortNumber(endPort, `${field}.endPort`, errors);
    }
  } else if (isSet(port.port)) {
    if (isSet(endPort)) errors.push(invalid(`${field}.endPort`, goScalar(endPort as number), 'may not be specified when `port` is non-numeric'));
    addInvalid(`${field}.port`, str(port.port), isValidPortName(str(port.port)), errors);
  } else if (isSet(endPort)) {
    errors.push(invalid(`${field}.endPort`, goScalar(endPort as number), 'may not be specified when `port` is not specified'));
  }
}

function checkPolicyPeer(peer: Json, field: string, errors: Errors): void {
  let peers = 0;
  for (const selector of ['podSelector', 'namespaceSelector']) {
    if (!isSet(peer[selector])) continue;
    peers++;
    checkLabelSelector(objectOf(peer[selector]) as LabelSelector, `${field}.${selector}`, errors);
  }
  if (isSet(peer.ipBlock)) {
    peers++;
    const block = objectOf(peer.ipBlock);
    const cidr = str(block.cidr);
    if (cidr === '') errors.push(required(`${field}.ipBlock.cidr`));
    else if (!CIDR.test(cidr)) errors.push(invalid(`${field}.ipBlock.cidr`, goQuote(cidr), CIDR_MESSAGE));
    listOf(block.except).forEach((except, index) => {
      if (!CIDR.test(str(except))) errors.push(invalid(`${field}.ipBlock.except[${index}]`, goQuote(str(except)), CIDR_MESSAGE));
    });
  }
  if (peers === 0) errors.push(required(field, 'must specify a peer'));
  else if (peers > 1 && isSet(peer.ipBlock)) errors.push(forbidden(field, 'may not specify both ipBlock and another peer'));
}

/** ValidateNetworkPolicy: the pod selector, each rule's ports and peers, the policy types. */
export function validateNetworkPolicy(policy: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(policy, old, errors);
  else checkObjectMeta(policy, true, nameIsDNSSubdomain, errors);
  const spec = objectOf(policy.spec);
  checkLabelSelector(objectOf(spec.podSelector) as LabelSelector, 'spec.podSelector', errors);
  for (const [direction, peersField] of [['ingress', 'from'], ['egress', 'to']] as const) {
    const rules = listOf(spec[direction]);
    for (let i = 0; i < rules.length; i++) {
      const rule = recordAt(rules, i);
      const ports = listOf(rule.ports);
      for (let j = 0; j < ports.length; j++) checkPolicyPort(recordAt(ports, j), `spec.${direction}[${i}].ports[${j}]`, errors);
      const peers = listOf(rule[peersField]);
      for (let j = 0; j < peers.length; j++) checkPolicyPeer(recordAt(peers, j), `spec.${direction}[${i}].${peersField}[${j}]`, errors);
    }
  }
  const policyTypes = listOf(spec.policyTypes).map(str);
  policyTypes.forEach((type, index) => {
    if (!POLICY_TYPES.includes(type)) errors.push(notSupported(`spec.policyTypes[${index}]`, goQuote(type), POLICY_TYPES));
  });
  if (policyTypes.length > POLICY_TYPES.length) errors.push(invalid('spec.policyTypes', `[]networking.PolicyType{${policyTypes.map(goQuote).join(', ')}}`, 'may not have more than 2 elements'));
  return errors;
}
