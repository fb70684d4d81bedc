/**
 * The details pane: the selected stage's evidence (or the selected object's summary), rendered
 * from model/evidence.ts with `textContent` only. Verbatim Kubernetes text keeps its wording and
 * wraps; the scheduler's node table scrolls sideways when it has many plugins.
 */
import { h, replaceChildren } from './dom';
import { GROUP_STYLES } from './model/components';
import type { EvidenceSection, EvidenceTable, EvidenceView } from './model/evidence';

export interface EvidenceActions {
  openYaml(): void;
  revealInTree(): void;
}

export class EvidencePane {
  readonly element: HTMLElement;
  private readonly body: HTMLDivElement;
  private readonly status: HTMLDivElement;

  constructor(private readonly actions: EvidenceActions) {
    this.body = h('div', { class: 'evidence-body' });
    this.status = h('div', { class: 'evidence-status', role: 'status' });
    this.element = h('aside', { class: 'evidence', 'aria-label': 'Evidence' }, this.body, this.status);
    this.show(undefined, false);
  }

  /** `canOpen`: the selection is an object the host can open (not a summary lane). */
  show(view: EvidenceView | undefined, canOpen: boolean, hint?: string): void {
    this.status.textContent = '';
    if (!view) {
      replaceChildren(this.body, h('p', { class: 'placeholder' }, hint ?? 'Select a stage (click it, or move with the arrow keys and press Enter) to see what shows it happened.'));
      return;
    }
    const heading = h('h2', { class: `evidence-heading${view.warning ? ' warning' : ''}` });
    if (view.group) heading.append(h('span', { class: `swatch group-${view.group}`, title: GROUP_STYLES[view.group].label, 'aria-hidden': 'true' }));
    if (view.warning) heading.append(h('span', { class: 'warning-sign', 'aria-label': 'warning' }, '⚠ '));
    heading.append(view.heading);
    const buttons = canOpen
      ? h(
          'div',
          { class: 'evidence-actions' },
          button('Open YAML at this time', 'Open the object as it was at this stage (Y)', () => this.actions.openYaml()),
          button('Reveal in tree', 'Show the object in the Kube Journey explorer', () => this.actions.revealInTree()),
        )
      : undefined;
    replaceChildren(
      this.body,
      heading,
      h('div', { class: 'evidence-subject' }, view.subject),
      h('ul', { class: 'evidence-facts' }, ...view.facts.map((fact) => h('li', undefined, fact))),
      buttons,
      ...view.sections.map(renderSection),
    );
  }

  setStatus(text: string, error: boolean): void {
    this.status.textContent = text;
    this.status.classList.toggle('error', error);
  }
}

function button(label: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', title }, label);
  b.addEventListener('click', onClick);
  return b;
}

function renderSection(section: EvidenceSection): HTMLElement {
  const title = h('h3', undefined, section.title);
  switch (section.kind) {
    case 'text':
      return h('section', { class: 'evidence-section' }, title, section.verbatim ? h('pre', { class: 'verbatim' }, section.text) : h('p', undefined, section.text));
    case 'list':
      return h('section', { class: 'evidence-section' }, title, h('ul', { class: 'evidence-list' }, ...section.items.map((item) => h('li', { class: item.startsWith('  ') ? 'sub' : undefined }, item.trimStart()))));
    case 'table':
      return h('section', { class: 'evidence-section' }, title, h('p', undefined, section.summary), renderTable(section.table));
    default: {
      const unhandled: never = section;
      return unhandled;
    }
  }
}

function renderTable(table: EvidenceTable): HTMLElement {
  const head = h('tr', undefined, ...table.columns.map((c, i) => h('th', { scope: 'col', class: table.numeric[i] ? 'num' : undefined }, c)));
  const rows = table.rows.map((row) =>
    h(
      'tr',
      { class: row.mark },
      ...row.cells.map((cell, i) => {
        const failed = row.failed?.[i] === true;
        const attrs = { class: [table.numeric[i] ? 'num' : '', failed ? 'failed' : ''].filter(Boolean).join(' ') || undefined };
        return i === 0 ? h('th', { ...attrs, scope: 'row' }, cell, row.mark === 'chosen' ? ' (chosen)' : '') : h('td', attrs, cell);
      }),
    ),
  );
  return h(
    'div',
    { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Scheduler verdicts per node' },
    h('table', { class: 'verdicts' }, h('thead', undefined, head), h('tbody', undefined, ...rows)),
    table.note ? h('p', { class: 'note' }, table.note) : undefined,
  );
}
