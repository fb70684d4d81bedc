import assert from 'node:assert/strict';
import { buildTimelineHtml, createNonce, escapeHtml, timelineCsp } from '../../../src/extension/headless/timeline-html';

const options = {
  cspSource: 'https://*.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/timeline.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/timeline.css',
};

function cspOf(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(match, 'no CSP meta tag');
  return match[1].replace(/&#39;/g, "'");
}

describe('timeline panel HTML', () => {
  it('has the strict policy: nothing by default, extension styles, one nonce script', () => {
    const html = buildTimelineHtml({ ...options, nonce: 'abc123==' });
    assert.equal(cspOf(html), "default-src 'none'; style-src https://*.vscode-cdn.net; script-src 'nonce-abc123=='; img-src https://*.vscode-cdn.net data:; font-src https://*.vscode-cdn.net");
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
  });

  it('loads the script and style by URI only, with the nonce, and has no inline script or style', () => {
    const html = buildTimelineHtml({ ...options, nonce: 'n0nce' });
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0][1], /nonce="n0nce"/);
    assert.match(scripts[0][1], /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/media\/timeline\.js"/);
    assert.equal(scripts[0][2], '');
    assert.doesNotMatch(html, /<style|style="/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/media\/timeline\.css">/);
  });

  it('makes a fresh 128-bit nonce per page when none is given', () => {
    const a = /nonce="([^"]+)"/.exec(buildTimelineHtml(options))?.[1];
    const b = /nonce="([^"]+)"/.exec(buildTimelineHtml(options))?.[1];
    assert.ok(a && b);
    assert.notEqual(a, b);
    assert.equal(Buffer.from(createNonce(), 'base64').length, 16);
  });

  it('escapes URIs and the title, and refuses a cspSource that could add directives', () => {
    const html = buildTimelineHtml({ ...options, scriptUri: 'https://x/a.js"><script>alert(1)</script>', title: '<b>web</b>', nonce: 'n' });
    assert.doesNotMatch(html, /<script>alert/);
    assert.match(html, /<title>&lt;b&gt;web&lt;\/b&gt;<\/title>/);
    assert.throws(() => timelineCsp("https://x; script-src 'unsafe-inline'", 'n'), /cspSource/);
    assert.throws(() => timelineCsp("'unsafe-inline'", 'n'), /cspSource/);
    assert.match(timelineCsp("'self' https://*.vscode-cdn.net", 'n'), /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
    assert.throws(() => buildTimelineHtml({ ...options, nonce: "n' 'unsafe-inline" }), /nonce/);
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
