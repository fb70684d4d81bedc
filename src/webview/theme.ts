/**
 * Theme colours for the canvas, read from VS Code's CSS variables. The canvas cannot use
 * `var(--…)`, so the values are resolved here and re-read when VS Code switches theme (it rewrites
 * the variables on <html> and the theme class on <body>).
 */
import { GROUP_ORDER, GROUP_STYLES, UI_COLOURS, type ComponentGroup } from './model/components';

export interface Palette {
  readonly group: Readonly<Record<ComponentGroup, string>>;
  readonly warning: string;
  readonly focus: string;
  readonly foreground: string;
  readonly muted: string;
  readonly grid: string;
  readonly background: string;
  readonly selection: string;
  readonly hover: string;
  readonly font: string;
  readonly monoFont: string;
}

function read(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const value = style.getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

export function readPalette(): Palette {
  const style = getComputedStyle(document.documentElement);
  const group = {} as Record<ComponentGroup, string>;
  for (const g of GROUP_ORDER) group[g] = read(style, GROUP_STYLES[g].cssVar, GROUP_STYLES[g].fallback);
  const ui = (key: keyof typeof UI_COLOURS): string => read(style, UI_COLOURS[key].cssVar, UI_COLOURS[key].fallback);
  const fontFamily = read(style, '--vscode-font-family', 'system-ui, sans-serif');
  const fontSize = read(style, '--vscode-font-size', '13px');
  const monoFamily = read(style, '--vscode-editor-font-family', 'monospace');
  return {
    group,
    warning: ui('warning'),
    focus: ui('focus'),
    foreground: ui('foreground'),
    muted: ui('muted'),
    grid: ui('grid'),
    background: ui('background'),
    selection: ui('selection'),
    hover: ui('hover'),
    font: `${fontSize} ${fontFamily}`,
    monoFont: `11px ${monoFamily}`,
  };
}

/** Calls `onChange` after VS Code changes the theme. Returns a function that stops watching. */
export function watchTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(() => onChange());
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}
