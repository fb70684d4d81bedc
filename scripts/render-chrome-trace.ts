/**
 * Draws a Chrome trace written by `kube-journey export --format chrome` as an offline HTML page
 * (an SVG: one row per thread under its process, slices stacked by nesting, stages as markers) and
 * screenshots it with Debian's chromium. Perfetto's UI needs the network and chrome://tracing is
 * disabled in Debian's chromium ("Internal debugging pages are currently disabled"), so this is how
 * an export is looked at here: what it shows is read from the trace file alone.
 *
 *   node --import tsx scripts/render-chrome-trace.ts TRACE.json OUT.png [--title TEXT] [--max-threads N]
 *
 * Writes OUT.html beside OUT.png.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ChromeTraceEvent } from '../src/core/export/chrome-trace';
import { launchChromium } from './e2e/browser';

interface Thread {
  pid: number;
  tid: number;
  name: string;
  slices: (ChromeTraceEvent & { depth: number })[];
  instants: ChromeTraceEvent[];
  depth: number;
}

const WIDTH = 1500;
const GUTTER = 300;
const SLICE_HEIGHT = 16;
const ROW_GAP = 10;
const PROCESS_HEADER = 24;
const AXIS = 34;

const PHASE_COLOURS: Record<string, string> = {
  create_to_schedule: '#8e6cc4',
  schedule_to_run: '#3d8fd1',
  run_to_watch: '#2aa198',
  schedule_to_watch: '#6aa5d6',
  create_to_run: '#a989d8',
  pod_startup: '#c7b3e6',
  create_to_ready: '#d9cdef',
};
const STATUS_COLOURS: Record<string, string> = { complete: '#9fd39b', stuck: '#f08a80', failed: '#e35d50', progressing: '#9cc6ee', pending: '#d6d6d6', deleted: '#bdbdbd' };

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

function colourOf(event: ChromeTraceEvent): string {
  if (event.cat === 'phase') return PHASE_COLOURS[event.name] ?? '#999';
  return STATUS_COLOURS[String(event.args?.status)] ?? '#ccc';
}

/** Slices stacked by nesting: a slice inside another one goes one row below it. */
function stack(slices: ChromeTraceEvent[]): (ChromeTraceEvent & { depth: number })[] {
  const ordered = [...slices].sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const open: (ChromeTraceEvent & { depth: number })[] = [];
  const out: (ChromeTraceEvent & { depth: number })[] = [];
  for (const slice of ordered) {
    while (open.length > 0 && open[open.length - 1].ts + open[open.length - 1].dur! <= slice.ts && !(slice.dur === 0 && open[open.length - 1].ts === slice.ts)) open.pop();
    const placed = { ...slice, depth: open.length };
    out.push(placed);
    open.push(placed);
  }
  return out;
}

function tickStep(spanUs: number): number {
  const target = spanUs / 8;
  const power = 10 ** Math.floor(Math.log10(target));
  for (const factor of [1, 2, 5, 10]) if (power * factor >= target) return power * factor;
  return power * 10;
}

function formatUs(us: number): string {
  if (us === 0) return '0';
  if (us >= 1_000_000) return `${+(us / 1_000_000).toFixed(3)} s`;
  return `${+(us / 1000).toFixed(3)} ms`;
}

export function renderSvg(events: ChromeTraceEvent[], title: string, maxThreads: number): { svg: string; height: number } {
  const processNames = new Map<number, string>();
  const threads = new Map<string, Thread>();
  const threadOf = (pid: number, tid: number): Thread => {
    const key = `${pid}/${tid}`;
    let thread = threads.get(key);
    if (!thread) threads.set(key, (thread = { pid, tid, name: `thread ${tid}`, slices: [], instants: [], depth: 1 }));
    return thread;
  };
  let end = 0;
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'process_name') processNames.set(event.pid, String(event.args?.name));
    else if (event.ph === 'M' && event.name === 'thread_name') threadOf(event.pid, event.tid).name = String(event.args?.name);
    else if (event.ph === 'X') {
      threadOf(event.pid, event.tid).slices.push({ ...event, depth: 0 });
      end = Math.max(end, event.ts + event.dur!);
    } else if (event.ph === 'i') {
      threadOf(event.pid, event.tid).instants.push(event);
      end = Math.max(end, event.ts);
    }
  }
  const ordered = [...threads.values()].sort((a, b) => a.pid - b.pid || a.tid - b.tid);
  const shown = ordered.slice(0, maxThreads);
  const scale = (WIDTH - GUTTER - 20) / Math.max(end, 1);
  const x = (ts: number): number => GUTTER + ts * scale;
  const parts: string[] = [];
  let y = AXIS + 30;
  // Axis and grid.
  const step = tickStep(end);
  for (let t = 0; t <= end + 1e-9; t += step) {
    parts.push(`<line x1="${x(t)}" y1="${AXIS + 20}" x2="${x(t)}" y2="100%" stroke="#eee"/>`, `<text x="${x(t)}" y="${AXIS + 14}" class="tick">${formatUs(t)}</text>`);
  }
  let lastPid = -1;
  for (const thread of shown) {
    if (thread.pid !== lastPid) {
      lastPid = thread.pid;
      parts.push(`<rect x="0" y="${y}" width="${WIDTH}" height="${PROCESS_HEADER - 4}" fill="#3b4a5a"/>`, `<text x="8" y="${y + 15}" class="process">${escapeXml(processNames.get(thread.pid) ?? `process ${thread.pid}`)}</text>`);
      y += PROCESS_HEADER;
    }
    const slices = stack(thread.slices);
    thread.depth = Math.max(1, ...slices.map((slice) => slice.depth + 1));
    const rowHeight = thread.depth * SLICE_HEIGHT + 12;
    parts.push(`<text x="12" y="${y + 14}" class="thread">${escapeXml(thread.name)}</text>`, `<line x1="0" y1="${y + rowHeight + ROW_GAP / 2}" x2="${WIDTH}" y2="${y + rowHeight + ROW_GAP / 2}" stroke="#ddd"/>`);
    const labelEnds = new Map<number, number>();
    const overlapsSlice = (depth: number, from: number, to: number, self: ChromeTraceEvent): boolean =>
      slices.some((other) => other !== self && other.depth === depth && x(other.ts) < to && x(other.ts) + Math.max(1, other.dur! * scale) > from);
    for (const slice of slices) {
      const left = x(slice.ts);
      const width = Math.max(1, slice.dur! * scale);
      const top = y + 12 + slice.depth * SLICE_HEIGHT;
      const label = slice.cat === 'phase' ? `${slice.name} ${formatUs(slice.dur!)}` : slice.name;
      parts.push(`<rect x="${left}" y="${top}" width="${width}" height="${SLICE_HEIGHT - 2}" fill="${colourOf(slice)}" stroke="#0003"><title>${escapeXml(label)}</title></rect>`);
      // A label that does not fit inside goes to the slice's right, unless it would cover another slice or label there.
      const outsideFrom = left + width + 4;
      const outsideTo = outsideFrom + label.length * 6.2;
      if (width > label.length * 6.2) parts.push(`<text x="${left + 3}" y="${top + 11}" class="slice">${escapeXml(label)}</text>`);
      else if (outsideTo < WIDTH && outsideFrom > (labelEnds.get(slice.depth) ?? -Infinity) && !overlapsSlice(slice.depth, outsideFrom, outsideTo, slice)) {
        parts.push(`<text x="${outsideFrom}" y="${top + 11}" class="slice outside">${escapeXml(label)}</text>`);
        labelEnds.set(slice.depth, outsideTo);
      }
    }
    // Stages: a marker on the row's top edge, red for warnings; their kinds written where they fit.
    let labelEnd = -Infinity;
    for (const instant of [...thread.instants].sort((a, b) => a.ts - b.ts)) {
      const left = x(instant.ts);
      const warning = instant.args?.warning === true;
      parts.push(`<path d="M${left - 4},${y + 2} L${left + 4},${y + 2} L${left},${y + 10} Z" fill="${warning ? '#d0021b' : '#333'}"><title>${escapeXml(`${instant.cat}: ${instant.name}`)}</title></path>`);
      const text = String(instant.cat);
      if (left > labelEnd + 4 && left > GUTTER + 2 && left + text.length * 5.5 < WIDTH) {
        parts.push(`<text x="${left + 5}" y="${y + 9}" class="${warning ? 'stage warning' : 'stage'}">${escapeXml(text)}</text>`);
        labelEnd = left + 5 + text.length * 5.5;
      }
    }
    y += rowHeight + ROW_GAP;
  }
  if (ordered.length > shown.length) {
    parts.push(`<text x="12" y="${y + 14}" class="thread">… and ${ordered.length - shown.length} more threads</text>`);
    y += 24;
  }
  // Legend.
  y += 10;
  let legendX = 12;
  for (const [name, colour] of [...Object.entries(STATUS_COLOURS).slice(0, 3).map(([status, colour]) => [`object ${status}`, colour]), ...Object.entries(PHASE_COLOURS)]) {
    parts.push(`<rect x="${legendX}" y="${y}" width="12" height="12" fill="${colour}" stroke="#0003"/>`, `<text x="${legendX + 16}" y="${y + 10}" class="tick">${escapeXml(name)}</text>`);
    legendX += 26 + name.length * 6.2;
  }
  parts.push(`<path d="M${legendX},${y} L${legendX + 8},${y} L${legendX + 4},${y + 8} Z" fill="#333"/>`, `<text x="${legendX + 12}" y="${y + 10}" class="tick">stage</text>`);
  parts.push(`<path d="M${legendX + 60},${y} L${legendX + 68},${y} L${legendX + 64},${y + 8} Z" fill="#d0021b"/>`, `<text x="${legendX + 72}" y="${y + 10}" class="tick">warning stage</text>`);
  y += 30;
  const header = `<text x="12" y="22" class="title">${escapeXml(title)}</text><text x="${GUTTER}" y="${AXIS + 2}" class="tick">time from the apply</text>`;
  const style = `<style>text{font-family:sans-serif}.title{font-size:17px;font-weight:bold}.process{font-size:13px;fill:#fff;font-weight:bold}.thread{font-size:12px}.slice{font-size:10px}.outside{fill:#555}.tick{font-size:11px;fill:#555}.stage{font-size:9px;fill:#333}.warning{fill:#d0021b}</style>`;
  return { svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}">${style}${header}${parts.join('')}</svg>`, height: y };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { title: { type: 'string' }, 'max-threads': { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 2) throw new Error('usage: render-chrome-trace.ts TRACE.json OUT.png [--title TEXT] [--max-threads N]');
  const [tracePath, pngPath] = positionals;
  const trace = JSON.parse(readFileSync(tracePath, 'utf8')) as { traceEvents: ChromeTraceEvent[]; otherData?: Record<string, string> };
  const title = values.title ?? `${trace.otherData?.source ?? tracePath} — Chrome trace (kube-journey export)`;
  const { svg, height } = renderSvg(trace.traceEvents, title, Number(values['max-threads'] ?? 40));
  const htmlPath = pngPath.replace(/\.png$/, '') + '.html';
  writeFileSync(htmlPath, `<!doctype html><meta charset="utf-8"><title>${title.replace(/</g, '&lt;')}</title><body style="margin:0;background:#fff">${svg}</body>`);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: Math.min(Math.ceil(height), 4000) } });
    await page.goto(pathToFileURL(resolve(htmlPath)).href);
    await page.screenshot({ path: pngPath, fullPage: true });
  } finally {
    await browser.close();
  }
  process.stdout.write(`${pngPath} (${htmlPath})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`render-chrome-trace: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
