/**
 * A development and test page for the timeline webview, outside VS Code: serves the panel HTML
 * from the real builder (same CSP), media/timeline.js and .css, a stub `acquireVsCodeApi`
 * (stub-vscode-api.js) and a fixture snapshot as a script, all on 127.0.0.1.
 *
 *   npm run build && node --import tsx test/webview/preview-server.ts [--port 8123]
 *   open http://127.0.0.1:8123/?fixture=nginx   (nginx | examples | large | large-full | large-150k | kinds | kinds-job; &theme=light)
 *
 * Lanes carry typed arrays, which JSON cannot: fixture scripts mark them (`typedArrayReplacer`)
 * and the stub revives them. `/deltas/<fixture>.js` serves live updates of the large fixtures:
 * deltas made by the host's TimelineSync from `advanceJourney`, following the fixture's snapshot.
 *
 * The stub answers `requestObjectDetail` by adding a nonce'd <script src="/detail/…"> (JSONP: the
 * page's CSP allows no fetch), which the server fills from the full fixture.
 *
 * measure.ts starts it in process.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Journey, ObjectJourney } from '../../src/core/journey/types';
import { buildTimelineHtml } from '../../src/extension/headless/timeline-html';
import { journeyObjectKey, type DeltaMessage, type ObjectDetailMessage, type SnapshotMessage } from '../../src/protocol/timeline-protocol';
import { buildSnapshot, TimelineSync } from '../../src/protocol/timeline-sync';
import { advanceJourney, buildLargeJourney, simulateJourneys } from './journey-fixtures';
import { cronJobJourney, jobJourney, statefulSetJourney } from '../unit/journey/kind-journeys';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');

export type FixtureName = 'nginx' | 'examples' | 'large' | 'large-full' | 'large-150k' | 'kinds' | 'kinds-job';

/** Hand-built StatefulSet, Job and CronJob journeys (until the simulator runs their controllers), focused on one of them. */
function kindsFixture(focus: number): Fixture {
  const journeys = [statefulSetJourney(3), jobJourney(), cronJobJourney()];
  return simple(journeys, { now: Math.max(...journeys.map((j) => j.lastChangeAt)), focusJourneyId: journeys[focus].id, source: 'hand-built StatefulSet, Job and CronJob journeys' });
}

/** The 10,000-pod rollout; 150,000 pods on 5,000 nodes for the simplified view. Cached: both take seconds to build. */
const largeJourneys = new Map<FixtureName, Journey>();
function largeJourney(name: FixtureName): Journey {
  let journey = largeJourneys.get(name);
  if (!journey) {
    journey = name === 'large-150k' ? buildLargeJourney({ pods: 150_000, nodes: 5000, podsPerNode: 31 }) : buildLargeJourney();
    largeJourneys.set(name, journey);
  }
  return journey;
}

interface Fixture {
  readonly snapshot: SnapshotMessage;
  /** The journeys the snapshot was made from (full, for detail requests). */
  readonly journeys: readonly Journey[];
  /** Set for the large fixtures: the host's stream, to make deltas that follow the snapshot. */
  readonly sync?: TimelineSync;
}

function simple(journeys: Journey[], options: Parameters<typeof buildSnapshot>[1]): Fixture {
  return { snapshot: buildSnapshot(journeys, options), journeys };
}

function large(name: FixtureName, source: string, detailedPods?: number): Fixture {
  const journey = largeJourney(name);
  const sync = new TimelineSync();
  const snapshot = sync.snapshot([journey], { now: journey.lastChangeAt, source, ...(detailedPods !== undefined ? { detailedPods } : {}) });
  return { snapshot, journeys: [journey], sync };
}

const FIXTURES: Record<FixtureName, () => Fixture> = {
  nginx: () => {
    const run = simulateJourneys(join(repo, 'examples', 'nginx-deployment.yaml'));
    return simple(run.journeys, { now: run.now, source: 'built-in simulator (preview)' });
  },
  examples: () => {
    const journeys: Journey[] = [];
    let now = 0;
    for (const file of ['nginx-deployment.yaml', 'too-big.yaml', 'node-selector.yaml']) {
      const run = simulateJourneys(join(repo, 'examples', file), { timeoutMs: 30_000 });
      journeys.push(...run.journeys);
      now = Math.max(now, run.now);
    }
    return simple(journeys, { focusJourneyId: journeys[1]?.id, now, source: 'built-in simulator (preview)' });
  },
  // As the host sends it: the first pods with evidence, the others' on request.
  large: () => large('large', 'synthetic 10,000-pod fixture'),
  // Every pod with its evidence, for comparison.
  'large-full': () => large('large', 'synthetic 10,000-pod fixture, every pod with evidence', Number.POSITIVE_INFINITY),
  // Above 20,000 pods the host sends the simplified list only.
  'large-150k': () => large('large-150k', 'synthetic 150,000-pod fixture'),
  kinds: () => kindsFixture(0),
  'kinds-job': () => kindsFixture(1),
};

/** JSON cannot hold typed arrays: they go as `{ $typed, values }` (NaN as null), revived by the stub. */
export function typedArrayReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Float64Array || value instanceof Int32Array || value instanceof Uint8Array) {
    return { $typed: value.constructor.name, values: Array.from(value, (v) => (Number.isNaN(v) ? null : v)) };
  }
  return value;
}

function fixtureScript(global: string, value: unknown): string {
  return `window.${global} = window.__kjRevive(${JSON.stringify(JSON.stringify(value, typedArrayReplacer))});\n`;
}

/** The few VS Code theme variables the panel reads, as VS Code would inject them on <html>. */
const THEMES: Record<'dark' | 'light', string> = {
  dark: `html { --vscode-font-family: system-ui, "Segoe UI", sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: "DejaVu Sans Mono", monospace; --vscode-editor-font-size: 12px;
  --vscode-editor-foreground: #cccccc; --vscode-editor-background: #1e1e1e; --vscode-descriptionForeground: #9d9d9d; --vscode-focusBorder: #007fd4;
  --vscode-charts-blue: #3794ff; --vscode-charts-green: #89d185; --vscode-charts-purple: #b180d7; --vscode-charts-orange: #d18616; --vscode-charts-yellow: #cca700; --vscode-charts-red: #f14c4c;
  --vscode-editorWidget-border: #454545; --vscode-panel-border: #80808059; --vscode-list-activeSelectionBackground: #04395e; --vscode-list-hoverBackground: #2a2d2e; --vscode-list-inactiveSelectionBackground: #37373d;
  --vscode-textCodeBlock-background: #0a0a0a66; --vscode-editorWidget-background: #252526; }`,
  light: `html { --vscode-font-family: system-ui, "Segoe UI", sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: "DejaVu Sans Mono", monospace; --vscode-editor-font-size: 12px;
  --vscode-editor-foreground: #3b3b3b; --vscode-editor-background: #ffffff; --vscode-descriptionForeground: #717171; --vscode-focusBorder: #005fb8;
  --vscode-charts-blue: #1a85ff; --vscode-charts-green: #388a34; --vscode-charts-purple: #652d90; --vscode-charts-orange: #d18616; --vscode-charts-yellow: #bf8803; --vscode-charts-red: #e51400;
  --vscode-editorWidget-border: #c8c8c8; --vscode-panel-border: #80808059; --vscode-list-activeSelectionBackground: #e8e8e8; --vscode-list-hoverBackground: #f2f2f2; --vscode-list-inactiveSelectionBackground: #e4e6f1;
  --vscode-textCodeBlock-background: #dcdcdc66; --vscode-editorWidget-background: #f8f8f8;
  --vscode-button-secondaryForeground: #3b3b3b; --vscode-button-secondaryBackground: #e5e5e5; --vscode-button-secondaryHoverBackground: #cccccc; --vscode-dropdown-foreground: #3b3b3b; --vscode-dropdown-background: #ffffff; --vscode-dropdown-border: #cecece;
  --vscode-editorHoverWidget-foreground: #3b3b3b; --vscode-editorHoverWidget-background: #f8f8f8; }`,
};

export interface PreviewServer {
  readonly url: string;
  close(): Promise<void>;
  /** The snapshot a fixture page posts (built on first use, then cached). */
  fixture(name: FixtureName): SnapshotMessage;
  /** The journeys a fixture's snapshot was made from. */
  journeys(name: FixtureName): readonly Journey[];
}

export interface PreviewOptions {
  port?: number;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

export async function startPreviewServer(options: PreviewOptions = {}): Promise<PreviewServer> {
  const cache = new Map<FixtureName, { fixture: Fixture; script: string }>();
  /** Full objects of every fixture built so far, by `<journeyId>|<objectKey>`, for detail requests. */
  const objects = new Map<string, { version: number; object: ObjectJourney }>();
  const fixture = (name: FixtureName): { fixture: Fixture; script: string } => {
    let entry = cache.get(name);
    if (!entry) {
      const built = FIXTURES[name]();
      built.journeys.forEach(remember);
      entry = { fixture: built, script: fixtureScript('__kjFixture', built.snapshot) };
      cache.set(name, entry);
    }
    return entry;
  };
  /** `count` live updates of a large fixture, each changing `pods` pods, as the host would post them. */
  const deltas = (name: FixtureName, count: number, pods: number): (SnapshotMessage | DeltaMessage)[] => {
    const { fixture: built } = fixture(name);
    if (!built.sync) throw new Error(`${name} has no live updates`);
    // A fresh stream per request, so every page gets deltas that follow the snapshot it was sent.
    const sync = new TimelineSync();
    let journey = built.journeys[0];
    sync.snapshot([journey], { now: journey.lastChangeAt });
    const out: (SnapshotMessage | DeltaMessage)[] = [];
    for (let step = 0; step < count; step++) {
      journey = advanceJourney(journey, step, pods);
      out.push(sync.next([journey], { now: journey.lastChangeAt }));
    }
    return out;
  };
  const remember = (journey: Journey): void => {
    const visit = (node: ObjectJourney): void => {
      objects.set(`${journey.id}|${journeyObjectKey(node.ref)}`, { version: journey.version, object: { ...node, children: [] } });
      node.children.forEach(visit);
    };
    if (journey.tree) visit(journey.tree);
  };
  let origin = '';

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    if (path === '/' || path === '/index.html') {
      const name = (url.searchParams.get('fixture') ?? 'nginx') as FixtureName;
      if (!(name in FIXTURES)) return send(res, 404, 'text/plain', `unknown fixture ${name}`);
      const theme = url.searchParams.get('theme') === 'light' ? 'light' : 'dark';
      const nonce = 'cHJldmlldy1ub25jZQ==';
      const html = buildTimelineHtml({ cspSource: origin, scriptUri: `${origin}/media/timeline.js`, styleUri: `${origin}/media/timeline.css`, nonce, title: `Kube Journey preview: ${name}` })
        .replace('<link rel="stylesheet"', `<link rel="stylesheet" href="${origin}/stub/theme-${theme}.css">\n<link rel="stylesheet"`)
        .replace('<script nonce=', `<script nonce="${nonce}" src="${origin}/stub/vscode-api.js"></script>\n<script nonce="${nonce}" src="${origin}/fixture/${name}.js"></script>\n<script nonce=`)
        .replace('<body>', `<body class="vscode-${theme}">`);
      return send(res, 200, 'text/html; charset=utf-8', html);
    }
    if (path === '/media/timeline.js' || path === '/media/timeline.js.map') {
      try {
        return send(res, 200, 'text/javascript; charset=utf-8', readFileSync(join(repo, path)));
      } catch {
        return send(res, 404, 'text/plain', 'media/timeline.js is missing: run `npm run build` first');
      }
    }
    if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (path === '/media/timeline.css') return send(res, 200, 'text/css; charset=utf-8', readFileSync(join(repo, 'media', 'timeline.css')));
    if (path === '/stub/vscode-api.js') return send(res, 200, 'text/javascript; charset=utf-8', readFileSync(join(here, 'stub-vscode-api.js')));
    const themeMatch = /^\/stub\/theme-(dark|light)\.css$/.exec(path);
    if (themeMatch) return send(res, 200, 'text/css; charset=utf-8', THEMES[themeMatch[1] as 'dark' | 'light']);
    const fixtureMatch = /^\/fixture\/([\w-]+)\.js$/.exec(path);
    if (fixtureMatch && fixtureMatch[1] in FIXTURES) return send(res, 200, 'text/javascript; charset=utf-8', fixture(fixtureMatch[1] as FixtureName).script);
    const deltasMatch = /^\/deltas\/([\w-]+)\.js$/.exec(path);
    if (deltasMatch && deltasMatch[1] in FIXTURES) {
      const count = Number(url.searchParams.get('count') ?? 20);
      const pods = Number(url.searchParams.get('pods') ?? 50);
      return send(res, 200, 'text/javascript; charset=utf-8', fixtureScript('__kjDeltas', deltas(deltasMatch[1] as FixtureName, count, pods)));
    }
    if (path === '/detail.js') {
      const requestId = Number(url.searchParams.get('requestId'));
      const journeyId = url.searchParams.get('journey') ?? '';
      const found = objects.get(`${journeyId}|${url.searchParams.get('object') ?? ''}`);
      const answer = found
        ? ({ type: 'objectDetail', requestId, journeyId, version: found.version, object: found.object } satisfies ObjectDetailMessage)
        : { type: 'requestResult', requestId, ok: false, error: 'unknown object' };
      return send(res, 200, 'text/javascript; charset=utf-8', `window.postMessage(${JSON.stringify(answer)}, '*');\n`);
    }
    send(res, 404, 'text/plain', 'not found');
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      send(res, 500, 'text/plain', error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    fixture: (name) => fixture(name).fixture.snapshot,
    journeys: (name) => fixture(name).fixture.journeys,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const portArg = process.argv.indexOf('--port');
  const port = portArg >= 0 ? Number(process.argv[portArg + 1]) : 8123;
  startPreviewServer({ port }).then((server) => {
    process.stdout.write(`Kube Journey timeline preview: ${server.url}/?fixture=nginx (also: examples, large; &theme=light)\n`);
  });
}
