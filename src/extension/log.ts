/** The "Kube Journey" output channel, behind a small interface so pure modules can log in tests. */
import * as vscode from 'vscode';

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export class OutputLog implements Log, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('Kube Journey', { log: true });
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string): void {
    this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
