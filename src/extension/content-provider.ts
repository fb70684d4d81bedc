/**
 * Read-only virtual documents under the `kube-journey:` scheme: an object as the watch delivered
 * it at one recorded moment (`/object/<Kind>/<namespace>/<name>.yaml?rv=<resourceVersion>`), and
 * a pod's scheduler verdicts (`/scheduler/<namespace>/<name>.md?journey=<id>`). The paths end in
 * the right extension so VS Code picks the YAML and Markdown languages by itself.
 */
import * as vscode from 'vscode';
import type { JourneyObjectRef, ObjectJourney } from '../core/journey/types';
import { CONTENT_SCHEME } from './commands';
import { contentLocation, parseContentAddress, versionHeader, type ContentAddress } from './headless/content-address';
import { versionYaml } from './headless/object-history';
import { schedulerVerdictsMarkdown } from './headless/scheduler-verdicts';
import type { TraceSession } from './headless/trace-session';

export function contentUri(address: ContentAddress): vscode.Uri {
  return vscode.Uri.from({ scheme: CONTENT_SCHEME, ...contentLocation(address) });
}

export class KubeJourneyContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly session: TraceSession) {}

  /** Re-reads an open document (scheduler verdicts change while a pod waits). */
  refresh(uri: vscode.Uri): void {
    this.changeEmitter.fire(uri);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const address = parseContentAddress(uri.path, uri.query);
    if (!address) return `# Unknown Kube Journey document: ${uri.toString()}\n`;
    if (address.type === 'object') {
      const versions = this.session.history.versions(address.key);
      const index = versions.findIndex((v) => v.resourceVersion === address.resourceVersion);
      if (index < 0) return `# ${address.key.kind} ${address.key.namespace}/${address.key.name} at resourceVersion ${address.resourceVersion} is no longer recorded.\n`;
      const appliedAt = address.journeyId ? this.session.journey(address.journeyId)?.appliedAt : undefined;
      return versionYaml(versions[index], versionHeader(address.key, versions[index], versions[index - 1], appliedAt));
    }
    const pod = this.podOf(address.journeyId, { kind: 'Pod', namespace: address.namespace, name: address.name });
    if (!pod) return `# Scheduler verdicts for pod ${address.namespace}/${address.name}\n\nThis pod is no longer part of a traced journey.\n`;
    return schedulerVerdictsMarkdown(pod);
  }

  private podOf(journeyId: string, ref: JourneyObjectRef): ObjectJourney | undefined {
    const tree = this.session.journey(journeyId)?.tree;
    if (!tree) return undefined;
    const stack = [tree];
    while (stack.length > 0) {
      const object = stack.pop()!;
      if (object.ref.kind === ref.kind && object.ref.namespace === ref.namespace && object.ref.name === ref.name) return object;
      stack.push(...object.children);
    }
    return undefined;
  }
}
