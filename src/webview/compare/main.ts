/**
 * Entry point of the compare webview (bundled to media/compare.js): says `ready`, then draws each
 * `compare` message the host posts, once checked.
 */
import { COMPARE_PROTOCOL_VERSION, isCompareHostMessage, type CompareWebviewMessage } from '../../protocol/journey-compare';
import { CompareView } from './compare-view';

declare function acquireVsCodeApi(): { postMessage(message: CompareWebviewMessage): void };

const vscode = acquireVsCodeApi();
const root = document.getElementById('app');
if (!root) throw new Error('The compare page has no #app element.');

const reportError = (message: string): void => vscode.postMessage({ type: 'webviewError', message });
window.addEventListener('error', (event) => reportError(event.error instanceof Error ? `${event.error.message}\n${event.error.stack ?? ''}` : String(event.message)));

const view = new CompareView(root);
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isCompareHostMessage(message)) return;
  if (message.type === 'compare') view.show(message.model);
  else view.showError(message.error);
});
vscode.postMessage({ type: 'ready', protocolVersion: COMPARE_PROTOCOL_VERSION });
