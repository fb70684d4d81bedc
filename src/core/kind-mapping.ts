/**
 * What kubectl says when a manifest names a kind the server does not serve in that version (a
 * removed `batch/v1beta1` CronJob, a custom resource without its CRD): the RESTMapper's
 * NoKindMatchError (apimachinery meta/errors.go), wrapped by cli-runtime's resource builder:
 *
 *   error: resource mapping not found for name: "hello" namespace: "" from "cronjob.yaml": no matches for kind "CronJob" in version "batch/v1beta1"
 *   ensure CRDs are installed first
 */

/** `no matches for kind "CronJob" in version "batch/v1beta1"`. */
export function noKindMatchMessage(apiVersion: string, kind: string): string {
  return `no matches for kind "${kind}" in version "${apiVersion}"`;
}

export const ENSURE_CRDS = 'ensure CRDs are installed first';

/** The first line of kubectl's message; `namespace` is the manifest's own (empty when it names none). */
export function resourceMappingNotFound(name: string, namespace: string, source: string, apiVersion: string, kind: string): string {
  return `resource mapping not found for name: "${name}" namespace: "${namespace}" from "${source}": ${noKindMatchMessage(apiVersion, kind)}`;
}

/** A line after kubectl's, when the kind is served in other versions: `CronJob is served as batch/v1`. */
export function servedInsteadHint(kind: string, servedVersions: readonly string[]): string | undefined {
  if (servedVersions.length === 0) return undefined;
  return `${kind} is served as ${servedVersions.join(' and ')} (Kubernetes 1.32 serves no other version of it): change apiVersion to ${servedVersions[0]}`;
}
