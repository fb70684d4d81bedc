/** registerCommand typed by the command table: a handler gets exactly the arguments its command is given. */
import * as vscode from 'vscode';
import type { CommandArgs, CommandId } from './commands';

export function registerCommand<K extends CommandId>(id: K, handler: (...args: CommandArgs[K]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, handler as (...args: unknown[]) => unknown);
}

export function executeCommand<K extends CommandId, R = unknown>(id: K, ...args: CommandArgs[K]): Thenable<R> {
  return vscode.commands.executeCommand<R>(id, ...args);
}
