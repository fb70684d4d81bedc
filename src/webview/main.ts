/**
 * Entry point of the timeline webview (bundled to media/timeline.js). Wires the VS Code API and
 * the message channel to the app; every incoming message is checked before it is acted on.
 */
import { isHostToWebviewMessage } from '../protocol/timeline-protocol';
import { TimelineApp } from './app';
import { vscodeApi } from './vscode-api';

const vscode = vscodeApi();
const root = document.getElementById('app');
if (!root) throw new Error('The timeline page has no #app element.');

const reportError = (message: string): void => vscode.postMessage({ type: 'webviewError', message });
window.addEventListener('error', (event) => reportError(event.error instanceof Error ? `${event.error.message}\n${event.error.stack ?? ''}` : String(event.message)));
window.addEventListener('unhandledrejection', (event) => reportError(String(event.reason)));

const app = new TimelineApp(root, vscode);
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostToWebviewMessage(event.data)) app.receive(event.data);
});
app.start();
