/**
 * A stand-in for the `vscode` module, just enough for dist/extension.js to load and activate() to
 * run in plain Node: the activation benchmark and the lazy-loading test use it. It is strict: a
 * member it lacks throws with that member's name, so a new call in activate() fails clearly here
 * instead of running half of activate() and reporting a flattering figure.
 */
import { join } from 'node:path';

/** What the fake window records, for tests that drive the extension through its API. */
export interface FakeVscodeRecord {
  quickPicks: { label: string }[][];
  logLines: string[];
}

export interface FakeVscodeOptions {
  /** `kubeJourney.*` settings by key (`kubeconfig`, `simulator.nodes`…); the rest read their default. */
  settings?: Record<string, unknown>;
}

type Listener<T> = (value: T) => unknown;

class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, join(base.path, ...segments));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

class MarkdownString {
  value = '';
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
  appendText(text: string): this {
    this.value += text;
    return this;
  }
}

class ThemeColor {
  constructor(readonly id: string) {}
}

function disposable(dispose: () => void = () => undefined): { dispose(): void } {
  return { dispose };
}

/**
 * An object whose missing members throw, naming them (`vscode.window.createWebview`). `then` and
 * `toJSON` read as absent: promises and JSON.stringify probe every value for them.
 */
function strict<T extends object>(name: string, members: T): T {
  return new Proxy(members, {
    get(target, key, receiver) {
      if (typeof key === 'symbol' || key in target || key === 'then' || key === 'toJSON') return Reflect.get(target, key, receiver);
      throw new Error(`the fake vscode module lacks ${name}.${key} (add it to test/bundle-host/fake-vscode.ts)`);
    },
  });
}

/** The context VS Code hands to activate(): an extension folder, a storage folder, workspace state in memory. */
export function fakeExtensionContext(extensionFolder: string, storageFolder: string): object {
  const state = new Map<string, unknown>();
  return strict('ExtensionContext', {
    subscriptions: [] as { dispose(): unknown }[],
    extensionUri: Uri.file(extensionFolder),
    globalStorageUri: Uri.file(storageFolder),
    asAbsolutePath: (relativePath: string) => join(extensionFolder, relativePath),
    workspaceState: strict('Memento', {
      get: <T>(key: string, fallback?: T) => (state.has(key) ? (state.get(key) as T) : fallback),
      update: (key: string, value: unknown) => Promise.resolve(void state.set(key, value)),
      keys: () => [...state.keys()],
    }),
  });
}

export function fakeVscode(options: FakeVscodeOptions = {}): { module: object; record: FakeVscodeRecord } {
  const record: FakeVscodeRecord = { quickPicks: [], logLines: [] };
  const settings = options.settings ?? {};
  const noEvent = () => disposable();

  const window = strict('vscode.window', {
    createOutputChannel: (name: string) =>
      strict(`OutputChannel(${name})`, {
        info: (line: string) => record.logLines.push(`info ${line}`),
        warn: (line: string) => record.logLines.push(`warn ${line}`),
        error: (line: string) => record.logLines.push(`error ${line}`),
        show: () => undefined,
        dispose: () => undefined,
      }),
    createStatusBarItem: () => strict('StatusBarItem', { name: '', text: '', command: '', tooltip: undefined, backgroundColor: undefined, show: () => undefined, dispose: () => undefined }),
    createTreeView: () => strict('TreeView', { reveal: () => Promise.resolve(), dispose: () => undefined }),
    registerWebviewPanelSerializer: () => disposable(),
    registerCustomEditorProvider: () => disposable(),
    onDidChangeActiveTextEditor: noEvent,
    onDidChangeTextEditorVisibleRanges: noEvent,
    onDidChangeWindowState: noEvent,
    showQuickPick: (items: { label: string }[]) => {
      record.quickPicks.push(items);
      return Promise.resolve(undefined);
    },
  });

  const workspace = strict('vscode.workspace', {
    getConfiguration: () => strict('WorkspaceConfiguration', { get: <T>(key: string, fallback: T): T => (key in settings ? (settings[key] as T) : fallback) }),
    registerTextDocumentContentProvider: () => disposable(),
    onDidCloseTextDocument: noEvent,
    onDidChangeConfiguration: noEvent,
    onDidGrantWorkspaceTrust: noEvent,
  });

  const commands = strict('vscode.commands', {
    registerCommand: () => disposable(),
    executeCommand: () => Promise.resolve(undefined),
  });

  const languages = strict('vscode.languages', {
    registerHoverProvider: () => disposable(),
    registerCodeLensProvider: () => disposable(),
    registerCodeActionsProvider: () => disposable(),
    createDiagnosticCollection: () => strict('DiagnosticCollection', { dispose: () => undefined }),
  });

  const members = {
    version: '0.0.0-fake',
    window,
    workspace,
    commands,
    languages,
    EventEmitter,
    Uri,
    MarkdownString,
    ThemeColor,
    StatusBarAlignment: strict('vscode.StatusBarAlignment', { Left: 1, Right: 2 }),
    ProgressLocation: strict('vscode.ProgressLocation', { SourceControl: 1, Window: 10, Notification: 15 }),
    QuickPickItemKind: strict('vscode.QuickPickItemKind', { Separator: -1, Default: 0 }),
    CodeActionKind: strict('vscode.CodeActionKind', { QuickFix: { value: 'quickfix' } }),
    TreeItemCollapsibleState: strict('vscode.TreeItemCollapsibleState', { None: 0, Collapsed: 1, Expanded: 2 }),
  };
  // esbuild's `import * as vscode` copies the module's own members onto an object whose prototype
  // is the module's: a strict prototype makes `vscode.Missing` throw there too.
  const module = Object.create(strict('vscode', { __esModule: undefined }) as object) as object;
  Object.assign(module, members);
  return { module, record };
}
