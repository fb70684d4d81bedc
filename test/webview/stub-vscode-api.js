/* global window, document, sessionStorage, performance, setTimeout */
// Stands in for VS Code's webview API on the preview page (test/webview/preview-server.ts):
// answers `ready` with the fixture snapshot, fails requests politely, and keeps setState in
// sessionStorage so a reload restores the view as VS Code's serializer would.
(function () {
  'use strict';
  var posted = [];
  // The nonce of this script, for the detail scripts added later (currentScript is only set now).
  var nonce = document.currentScript ? document.currentScript.nonce : '';
  var stateKey = 'kube-journey-timeline-state';
  var state = null;
  try {
    state = JSON.parse(sessionStorage.getItem(stateKey) || 'null');
  } catch {
    state = null;
  }
  window.__kjPosted = posted;
  // Fixture scripts carry typed arrays as { $typed, values } (see typedArrayReplacer).
  window.__kjRevive = function (text) {
    return JSON.parse(text, function (_key, value) {
      if (value && typeof value === 'object' && typeof value.$typed === 'string') {
        var values = value.values.map(function (v) {
          return v === null ? NaN : v;
        });
        return new window[value.$typed](values);
      }
      return value;
    });
  };
  window.__kjPostSnapshot = function (snapshot) {
    window.__kjSnapshotPostedAt = performance.now();
    window.postMessage(snapshot, '*');
    window.__kjSnapshotClonedAt = performance.now();
  };
  window.acquireVsCodeApi = function () {
    return {
      postMessage: function (message) {
        posted.push(message);
        if (message.type === 'ready' && window.__kjFixture) {
          setTimeout(function () {
            window.__kjPostSnapshot(window.__kjFixture);
          }, 0);
        }
        if (message.type === 'resync' && window.__kjFixture) {
          setTimeout(function () {
            window.__kjPostSnapshot(window.__kjFixture);
          }, 0);
        }
        if (message.type === 'requestObjectDetail') {
          // JSONP: the page's CSP allows scripts with the nonce, and no fetch.
          var script = document.createElement('script');
          script.nonce = document.currentScript ? document.currentScript.nonce : nonce;
          script.src = '/detail.js?requestId=' + message.requestId + '&journey=' + encodeURIComponent(message.journeyId) + '&object=' + encodeURIComponent(message.object.kind + '/' + message.object.namespace + '/' + message.object.name);
          document.head.appendChild(script);
        }
        if (message.type === 'openObjectYaml' || message.type === 'revealInTree') {
          setTimeout(function () {
            window.postMessage({ type: 'requestResult', requestId: message.requestId, ok: false, error: 'the preview page has no extension host' }, '*');
          }, 0);
        }
      },
      getState: function () {
        return state;
      },
      setState: function (next) {
        state = next;
        sessionStorage.setItem(stateKey, JSON.stringify(next));
      },
    };
  };
})();
