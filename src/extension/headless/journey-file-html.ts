/**
 * The pages of the journey-file views besides the timeline itself (timeline-html.ts): the compare
 * view's shell (media/compare.css and media/compare.js under the same strict policy, one nonce'd
 * script) and the page a journey file that cannot be read shows instead of a blank panel: its one
 * error line, and no script at all. Pure (no `vscode` import).
 */
import { createNonce, escapeHtml, timelineCsp } from './timeline-html';

export interface CompareHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** `webview.asWebviewUri(<extension>/media/compare.js).toString()`. */
  scriptUri: string;
  /** `webview.asWebviewUri(<extension>/media/compare.css).toString()`. */
  styleUri: string;
  /** A fresh value per render; generated when absent. */
  nonce?: string;
}

export function buildCompareHtml(options: CompareHtmlOptions): string {
  const nonce = options.nonce ?? createNonce();
  if (!/^[A-Za-z0-9+/=_-]+$/.test(nonce)) throw new Error('journey-file-html: a nonce must be base64');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(timelineCsp(options.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
<title>Kube Journey: compare journeys</title>
</head>
<body>
<div id="app" class="compare" aria-busy="true"><p class="placeholder">Reading the two journeys…</p></div>
<script nonce="${nonce}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>
`;
}

export interface ErrorHtmlOptions {
  cspSource: string;
  /** The compare view's stylesheet (its `.problem` rule). */
  styleUri: string;
  /** What cannot be shown and why, one line (JourneyFileError's message: the file and its line or field). */
  problem: string;
  /** What the user can do, one line. */
  hint: string;
}

/** A page with one error and no script: what a journey file that cannot be read shows. */
export function buildJourneyFileErrorHtml(options: ErrorHtmlOptions): string {
  // No script: the policy allows none at all.
  const csp = timelineCsp(options.cspSource, createNonce()).replace(/script-src [^;]+/, "script-src 'none'");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
<title>Kube Journey: journey file</title>
</head>
<body>
<div class="problem" role="alert">
<h1>This journey file cannot be shown</h1>
<p class="problem-line">${escapeHtml(options.problem)}</p>
<p class="problem-hint">${escapeHtml(options.hint)}</p>
</div>
</body>
</html>
`;
}
