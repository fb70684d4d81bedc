/**
 * The only way the webview makes elements: text goes in through `textContent` (never `innerHTML`),
 * attributes through `setAttribute`, so nothing from the cluster is ever parsed as markup.
 */

export type Child = Node | string | undefined | false;

export interface Attributes {
  [name: string]: string | number | boolean | undefined;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

function setAttributes(element: Element, attributes: Attributes | undefined): void {
  if (!attributes) return;
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}

/** `h('button', { class: 'x', 'aria-label': 'Next' }, 'Next')`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  setAttributes(element, attributes);
  append(element, children);
  return element;
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
