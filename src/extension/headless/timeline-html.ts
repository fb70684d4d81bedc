/**
 * The timeline panel's HTML: an empty shell that loads media/timeline.css and media/timeline.js
 * under a strict Content Security Policy. Everything visible is built by the script from the
 * snapshot messages, so nothing from the cluster ever passes through this file.
 *
 * Pure (no `vscode` import): the caller passes `webview.cspSource` and the `asWebviewUri` strings,
 * and sets `localResourceRoots` to the media folder.
 */
import { randomBytes } from 'node:crypto';

export interface TimelineHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** `webview.asWebviewUri(<extension>/media/timeline.js).toString()`. */
  scriptUri: string;
  /** `webview.asWebviewUri(<extension>/media/timeline.css).toString()`. */
  styleUri: string;
  /** Document title (the panel's title is set on the panel itself). */
  title?: string;
  /** A fresh value per render; generated when absent. Pass one only in tests and previews. */
  nonce?: string;
}

/** 128 random bits, base64: a CSP nonce that cannot be guessed. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML attribute value or text node. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ATTRIBUTE_ESCAPES[ch]);
}

/** `cspSource` lands inside the policy itself, so it must not be able to add directives. */
function checkCspSource(cspSource: string): string {
  // Host sources (`https://*.vscode-cdn.net`) or the `'self'` keyword (code-server sends `'self' https://*.vscode-cdn.net`), space-separated.
  if (!/^(?:[\w\-.:/*]+|'self')(?: (?:[\w\-.:/*]+|'self'))*$/.test(cspSource)) throw new Error(`timeline-html: unexpected cspSource ${JSON.stringify(cspSource)}`);
  return cspSource;
}

/** The policy: nothing by default; styles, images and fonts only from the extension; the one nonce'd script. */
export function timelineCsp(cspSource: string, nonce: string): string {
  const source = checkCspSource(cspSource);
  return [`default-src 'none'`, `style-src ${source}`, `script-src 'nonce-${nonce}'`, `img-src ${source} data:`, `font-src ${source}`].join('; ');
}

export function buildTimelineHtml(options: TimelineHtmlOptions): string {
  const nonce = options.nonce ?? createNonce();
  if (!/^[A-Za-z0-9+/=_-]+$/.test(nonce)) throw new Error('timeline-html: a nonce must be base64');
  const title = escapeHtml(options.title ?? 'Kube Journey timeline');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(timelineCsp(options.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
<title>${title}</title>
</head>
<body>
<div id="app" class="app" aria-busy="true"><p class="placeholder">Waiting for a journey…</p></div>
<script nonce="${nonce}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>
`;
}
