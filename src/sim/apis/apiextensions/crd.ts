/**
 * CustomResourceDefinition (apiextensions.k8s.io/v1): defaulting and validation as
 * apiextensions-apiserver's `SetDefaults_CustomResourceDefinition` and
 * `ValidateCustomResourceDefinition` do them, the status its naming and establishing controllers
 * write, and the resources an established CRD serves.
 */
import type { KubeObject } from '../../../core/k8s';
import { goQuote } from '../../../core/schema/go-format';
import { isDNS1123Subdomain } from '../../../core/schema/name-rules';
import { addInvalid, type Errors, FIELD_IMMUTABLE, invalid, notSupported, required } from '../field';
import { isSchemaObject, type JsonSchemaProps } from './schema';
import { structuralSchemaErrors } from './structural';

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  schema?: { openAPIV3Schema?: JsonSchemaProps };
  subresources?: { status?: object; scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string } };
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: { jsonPath?: string }[];
}

interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec?: { group?: string; names?: CrdNames; scope?: string; versions?: CrdVersion[] };
}

/** One served group-version-kind of an established CRD: what discovery, routing and the store need. */
export interface CustomResourceInfo {
  group: string;
  version: string;
  apiVersion: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  hasStatus: boolean;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  schema: JsonSchemaProps;
  printerColumns: PrinterColumn[];
  /** Paths a field selector may name besides metadata.name and metadata.namespace (`spec.color`). */
  selectableFields: string[];
  /** The version objects are stored in; the others are served from it (conversion strategy None). */
  storage: boolean;
}

/** Upstream's v1 defaults: singular is the lowercased kind, listKind is `<Kind>List`. */
export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  const names = crd.spec?.names;
  if (!names) return;
  if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
  if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  const spec = crd.spec as Record<string, unknown>;
  spec.conversion ??= { strategy: 'None' };
}

const SCOPES = ['Cluster', 'Namespaced'];

/**
 * The 400 for a field selector naming a field the kind does not offer: the CRD handler's field
 * label conversion accepts a version's selectableFields, then falls back to
 * runtime.DefaultMetaV1FieldSelectorConversion, whose words these are.
 */
export function unsupportedFieldSelectorLabel(info: CustomResourceInfo, selector: string | null): string | undefined {
  for (const term of (selector ?? '').split(',')) {
    const label = term.split(/!=|==|=/)[0].trim();
    if (label === '' || label === 'metadata.name' || label === 'metadata.namespace' || info.selectableFields.includes(label)) continue;
    return `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`;
  }
  return undefined;
}

export function validateCustomResourceDefinition(crd: CustomResourceDefinition, old?: CustomResourceDefinition): Errors {
  const errors: Errors = [];
  const spec = crd.spec ?? {};
  const group = spec.group ?? '';
  const names = spec.names ?? {};
  const name = crd.metadata?.name ?? '';
  if (names.plural && group && name !== `${names.plural}.${group}`) errors.push(invalid('metadata.name', goQuote(name), 'must be spec.names.plural+"."+spec.group'));
  if (!group) errors.push(required('spec.group'));
  else {
    addInvalid('spec.group', group, isDNS1123Subdomain(group), errors);
    if (!group.includes('.')) errors.push(invalid('spec.group', goQuote(group), 'should be a domain with at least one dot'));
  }
  if (!spec.scope) errors.push(required('spec.scope'));
  else if (!SCOPES.includes(spec.scope)) errors.push(notSupported('spec.scope', goQuote(spec.scope), SCOPES));
  for (const field of ['plural', 'singular', 'kind', 'listKind'] as const) if (!names[field]) errors.push(required(`spec.names.${field}`));
  checkVersions(spec.versions ?? [], errors);
  if (old?.spec) {
    if (old.spec.group !== undefined && old.spec.group !== spec.group) errors.push(invalid('spec.group', goQuote(group), FIELD_IMMUTABLE));
    if (old.spec.names?.plural !== undefined && old.spec.names.plural !== names.plural) errors.push(invalid('spec.names.plural', goQuote(names.plural ?? ''), FIELD_IMMUTABLE));
  }
  return errors;
}

function checkVersions(versions: CrdVersion[], errors: Errors): void {
  if (versions.length === 0) errors.push(required('spec.versions', 'must have exactly one version marked as storage version'));
  const seen = new Set<string>();
  let storage = 0;
  versions.forEach((version, index) => {
    const path = `spec.versions[${index}]`;
    if (!version.name) errors.push(required(`${path}.name`));
    else if (seen.has(version.name)) errors.push(invalid(`${path}.name`, goQuote(version.name), 'must be unique'));
    else seen.add(version.name);
    if (version.storage) storage++;
    const schema = version.schema?.openAPIV3Schema;
    const schemaPath = `${path}.schema.openAPIV3Schema`;
    if (!isSchemaObject(schema)) errors.push(required(schemaPath, 'schemas are required'));
    else errors.push(...structuralSchemaErrors(schema, schemaPath));
  });
  if (versions.length > 0 && storage !== 1) errors.push(invalid('spec.versions', JSON.stringify(versions.map((v) => v.name)), 'must have exactly one version marked as storage version'));
  if (versions.length > 0 && !versions.some((v) => v.served)) errors.push(invalid('spec.versions', JSON.stringify(versions.map((v) => v.name)), 'must have at least one version marked as served'));
}

/**
 * The status upstream's naming and establishing controllers write to a CRD whose names do not
 * conflict: the accepted names, NamesAccepted and Established, and the stored version.
 */
export function establishedStatus(crd: CustomResourceDefinition, now: string): Record<string, unknown> {
  const names = crd.spec?.names ?? {};
  const acceptedNames: Record<string, unknown> = { plural: names.plural, singular: names.singular, kind: names.kind, listKind: names.listKind };
  if (names.shortNames?.length) acceptedNames.shortNames = names.shortNames;
  if (names.categories?.length) acceptedNames.categories = names.categories;
  const storage = (crd.spec?.versions ?? []).find((v) => v.storage)?.name;
  return {
    conditions: [
      { type: 'NamesAccepted', status: 'True', lastTransitionTime: now, reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', lastTransitionTime: now, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ],
    acceptedNames,
    storedVersions: storage ? [storage] : [],
  };
}

/** The served versions of a (valid) CRD, each as the resource it puts on the API. */
export function customResourceInfos(crd: CustomResourceDefinition): CustomResourceInfo[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const group = spec.group ?? '';
  return (spec.versions ?? [])
    .filter((version) => version.served && version.name)
    .map((version) => {
      const scale = version.subresources?.scale;
      return {
        group,
        version: version.name ?? '',
        apiVersion: `${group}/${version.name}`,
        kind: names.kind ?? '',
        listKind: names.listKind ?? `${names.kind}List`,
        plural: names.plural ?? '',
        singular: names.singular ?? (names.kind ?? '').toLowerCase(),
        namespaced: spec.scope === 'Namespaced',
        shortNames: names.shortNames ?? [],
        categories: names.categories ?? [],
        hasStatus: version.subresources?.status !== undefined,
        ...(scale ? { scale: { specReplicasPath: scale.specReplicasPath ?? '.spec.replicas', statusReplicasPath: scale.statusReplicasPath ?? '.status.replicas', ...(scale.labelSelectorPath ? { labelSelectorPath: scale.labelSelectorPath } : {}) } } : {}),
        schema: version.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        printerColumns: version.additionalPrinterColumns ?? [],
        selectableFields: (version.selectableFields ?? []).map((field) => (field.jsonPath ?? '').replace(/^\./, '')),
        storage: version.storage === true,
      };
    });
}
