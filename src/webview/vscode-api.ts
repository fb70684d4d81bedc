/**
 * The VS Code webview API, typed with our protocol. `acquireVsCodeApi` may be called only once
 * per page, so this module calls it and everything else imports the result.
 */
import type { TimelineViewState, WebviewToHostMessage } from '../protocol/timeline-protocol';

export interface VsCodeApi {
  postMessage(message: WebviewToHostMessage): void;
  getState(): unknown;
  setState(state: TimelineViewState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function vscodeApi(): VsCodeApi {
  return acquireVsCodeApi();
}
