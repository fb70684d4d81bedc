/**
 * Disposal without `vscode`: one base class with `_register()`, so that pure parts (the trace
 * session, the tree model) and VS Code parts release their listeners the same way. VS Code's own
 * disposables fit `IDisposable` structurally.
 */

export interface IDisposable {
  dispose(): void;
}

export function toDisposable(dispose: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      dispose();
    },
  };
}

/** Disposes in reverse order of registration; one failing dispose does not stop the others. */
export function disposeAll(disposables: IDisposable[]): void {
  const errors: unknown[] = [];
  while (disposables.length > 0) {
    try {
      disposables.pop()?.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed');
}

export abstract class Disposable implements IDisposable {
  private readonly disposables: IDisposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Keeps `disposable` until this object is disposed; disposes it at once if that already happened. */
  protected _register<T extends IDisposable>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.disposables.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.disposables);
  }
}

/** A typed event as VS Code shapes them: subscribe with a listener, get a disposable back. */
export type Event<T> = (listener: (value: T) => void) => IDisposable;

/** A minimal event emitter for pure modules (VS Code code uses vscode.EventEmitter). */
export class Emitter<T> implements IDisposable {
  private listeners: ((value: T) => void)[] = [];

  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners = [];
  }
}
