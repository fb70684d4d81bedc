/**
 * The control-plane view: the cluster's components as boxes and, for the current step of one
 * pod's journey, the messages between them as numbered arrows. Steps go forward and back with the
 * buttons, the arrow keys, or by picking one from the list. SVG built with createElementNS and
 * textContent; colours come from CSS classes bound to theme variables.
 */
import { h, replaceChildren, svg } from './dom';
import type { ComponentGroup } from './model/components';
import { ACTORS, ACTOR_BOXES, ACTOR_LABELS, DIAGRAM_SIZE, arrowGeometry, type Actor, type ControlPlaneStep } from './model/control-plane';

export interface ControlPlaneData {
  readonly steps: readonly ControlPlaneStep[];
  readonly index: number;
  /** Pods to choose from (stuck ones first), and the one shown. */
  readonly podChoices: readonly { readonly key: string; readonly label: string }[];
  readonly podKey?: string;
  readonly totalPods: number;
}

export interface ControlPlaneCallbacks {
  step(index: number): void;
  choosePod(key: string): void;
  /** Show the current step's stage in the details pane. */
  showStep(step: ControlPlaneStep): void;
}

const ACTOR_GROUP: Record<Actor, ComponentGroup> = {
  kubectl: 'client',
  apiserver: 'apiServer',
  etcd: 'apiServer',
  controllerManager: 'controllerManager',
  scheduler: 'scheduler',
  kubelet: 'kubelet',
  runtime: 'runtime',
};

const LINKS: readonly [Actor, Actor][] = [
  ['kubectl', 'apiserver'],
  ['apiserver', 'etcd'],
  ['controllerManager', 'apiserver'],
  ['scheduler', 'apiserver'],
  ['kubelet', 'apiserver'],
  ['kubelet', 'runtime'],
];

export class ControlPlaneView {
  readonly element: HTMLElement;
  private readonly diagram: SVGSVGElement;
  private readonly stepTitle: HTMLDivElement;
  private readonly messages: HTMLDivElement;
  private readonly internals: HTMLDivElement;
  private readonly list: HTMLOListElement;
  private readonly picker: HTMLSelectElement;
  private readonly prev: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly position: HTMLSpanElement;
  private data?: ControlPlaneData;

  constructor(private readonly callbacks: ControlPlaneCallbacks) {
    this.diagram = svg('svg', { class: 'cp-diagram', viewBox: `0 0 ${DIAGRAM_SIZE.width} ${DIAGRAM_SIZE.height}`, role: 'img', 'aria-label': 'Control-plane components and the messages of the current step' });
    this.stepTitle = h('div', { class: 'cp-step-title', 'aria-live': 'polite' });
    this.messages = h('div', { class: 'cp-messages' });
    this.internals = h('div', { class: 'cp-internals' });
    this.list = h('ol', { class: 'cp-steps', 'aria-label': 'Steps' });
    this.picker = h('select', { class: 'cp-pod', 'aria-label': 'Pod whose journey is stepped through' });
    this.picker.addEventListener('change', () => this.callbacks.choosePod(this.picker.value));
    this.prev = h('button', { type: 'button', title: 'Previous step (←)' }, '◀ Prev');
    this.next = h('button', { type: 'button', title: 'Next step (→)' }, 'Next ▶');
    this.prev.addEventListener('click', () => this.go(-1));
    this.next.addEventListener('click', () => this.go(1));
    this.position = h('span', { class: 'cp-position' });
    const controls = h('div', { class: 'cp-controls' }, h('label', undefined, 'Pod ', this.picker), this.prev, this.position, this.next);
    const stage = h('div', { class: 'cp-stage', tabindex: 0, 'aria-label': 'Control-plane diagram. Left and right arrow keys step through the journey.' }, this.diagram);
    stage.addEventListener('keydown', (event) => this.onKey(event));
    this.element = h('section', { class: 'cp-view' }, controls, h('div', { class: 'cp-main' }, h('div', { class: 'cp-left' }, this.stepTitle, stage, this.messages, this.internals), h('div', { class: 'cp-list-wrap' }, this.list)));
  }

  focus(): void {
    (this.element.querySelector('.cp-stage') as HTMLElement | null)?.focus();
  }

  setData(data: ControlPlaneData): void {
    const previous = this.data;
    this.data = data;
    if (previous?.podChoices !== data.podChoices || previous?.podKey !== data.podKey) this.renderPicker(data);
    if (previous?.steps !== data.steps) this.renderList(data);
    this.renderStep(data);
  }

  private go(delta: number): void {
    const data = this.data;
    if (!data || data.steps.length === 0) return;
    const index = Math.min(data.steps.length - 1, Math.max(0, data.index + delta));
    if (index !== data.index) this.callbacks.step(index);
  }

  private onKey(event: KeyboardEvent): void {
    const data = this.data;
    if (!data) return;
    let index: number | undefined;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') index = data.index + 1;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') index = data.index - 1;
    else if (event.key === 'Home') index = 0;
    else if (event.key === 'End') index = data.steps.length - 1;
    else if (event.key === 'Enter' || event.key === ' ') {
      const step = data.steps[data.index];
      if (step) this.callbacks.showStep(step);
      event.preventDefault();
      return;
    }
    if (index === undefined) return;
    event.preventDefault();
    index = Math.min(data.steps.length - 1, Math.max(0, index));
    if (index !== data.index) this.callbacks.step(index);
  }

  private renderPicker(data: ControlPlaneData): void {
    const options = data.podChoices.map((choice) => {
      const option = h('option', { value: choice.key }, choice.label);
      option.selected = choice.key === data.podKey;
      return option;
    });
    replaceChildren(this.picker, ...options);
    this.picker.disabled = options.length <= 1;
    this.picker.title = data.totalPods > data.podChoices.length ? `Stuck pods and the first pods of ${data.totalPods}; select a pod in the lanes view to show any other.` : '';
  }

  private renderList(data: ControlPlaneData): void {
    const items = data.steps.map((step, index) => {
      const b = h('button', { type: 'button', class: `cp-step-button${step.stage.warning ? ' warning' : ''}` }, step.title);
      b.addEventListener('click', () => this.callbacks.step(index));
      return h('li', undefined, b);
    });
    replaceChildren(this.list, ...items);
  }

  private renderStep(data: ControlPlaneData): void {
    const step = data.steps[data.index];
    this.prev.disabled = data.index <= 0;
    this.next.disabled = data.index >= data.steps.length - 1;
    this.position.textContent = data.steps.length === 0 ? 'no steps' : `step ${data.index + 1} of ${data.steps.length}`;
    Array.from(this.list.children).forEach((li, i) => {
      if (i === data.index) {
        li.setAttribute('aria-current', 'step');
        (li as HTMLElement).scrollIntoView({ block: 'nearest' });
      } else li.removeAttribute('aria-current');
    });
    this.renderDiagram(step);
    if (!step) {
      this.stepTitle.textContent = 'This journey has no stages yet.';
      replaceChildren(this.messages);
      replaceChildren(this.internals);
      return;
    }
    this.stepTitle.textContent = `${step.title} · ${step.object.kind} ${step.object.name}`;
    const messages = step.arrows.map((arrow) =>
      h('li', { class: arrow.observed ? 'observed' : undefined }, `${ACTOR_LABELS[arrow.from]} → ${ACTOR_LABELS[arrow.to]}: ${arrow.label}`, h('span', { class: 'cp-how' }, arrow.observed ? ' (recorded)' : arrow.kind === 'watch' ? '' : ' (implied by the stage)')),
    );
    replaceChildren(this.messages, h('h3', undefined, 'Messages'), h('ol', { class: 'evidence-list cp-message-list' }, ...messages));
    const lines = step.internals.length > 0 ? step.internals : ['No internals recorded for this step. A real cluster does not expose its etcd writes and watch deliveries; the built-in simulator records them.'];
    replaceChildren(this.internals, h('h3', undefined, 'Internals'), h('ul', { class: 'evidence-list' }, ...lines.map((line) => h('li', undefined, line))));
  }

  private renderDiagram(step: ControlPlaneStep | undefined): void {
    const defs = svg(
      'defs',
      undefined,
      ...(['active', 'observed', 'idle'] as const).map((kind) =>
        svg('marker', { id: `cp-head-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse', class: `cp-head ${kind}` }, svg('path', { d: 'M0,0 L10,5 L0,10 z' })),
      ),
    );
    const links = LINKS.map(([a, b]) => {
      const g = arrowGeometry(a, b);
      return svg('line', { class: 'cp-link', x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2 });
    });
    const involved = new Set<Actor>();
    if (step) {
      involved.add(step.actor);
      for (const arrow of step.arrows) {
        involved.add(arrow.from);
        involved.add(arrow.to);
      }
    }
    const boxes = ACTORS.map((actor) => {
      const b = ACTOR_BOXES[actor];
      const classes = ['cp-actor', `group-${ACTOR_GROUP[actor]}`, involved.has(actor) ? 'involved' : '', step?.actor === actor ? 'acting' : ''].filter(Boolean).join(' ');
      return svg('g', { class: classes }, svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: 6 }), svg('text', { x: b.x + b.w / 2, y: b.y + b.h / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, ACTOR_LABELS[actor]));
    });
    const arrows: SVGElement[] = [];
    if (step) {
      const perPair = new Map<string, number>();
      step.arrows.forEach((arrow, i) => {
        const pair = [arrow.from, arrow.to].sort().join('|');
        const lane = perPair.get(pair) ?? 0;
        perPair.set(pair, lane + 1);
        const g = arrowGeometry(arrow.from, arrow.to, lane + 1);
        const kind = arrow.observed ? 'observed' : 'active';
        const title = svg('title', undefined, `${i + 1}. ${ACTOR_LABELS[arrow.from]} → ${ACTOR_LABELS[arrow.to]}: ${arrow.label}`);
        const badge = svg('g', { class: 'cp-badge' }, svg('circle', { cx: g.lx, cy: g.ly, r: 8 }), svg('text', { x: g.lx, y: g.ly, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, String(i + 1)));
        arrows.push(svg('g', { class: `cp-arrow ${kind} ${arrow.kind}` }, title, svg('line', { x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2, 'marker-end': `url(#cp-head-${kind})` }), badge));
      });
    }
    replaceChildren(this.diagram, defs, ...links, ...boxes, ...arrows);
  }
}
