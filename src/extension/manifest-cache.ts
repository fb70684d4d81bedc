/**
 * Parsed manifests per open document version: hovers and CodeLenses ask for the same document
 * many times between two edits, and a 3,000-line manifest should be parsed once per edit.
 */
import type * as vscode from 'vscode';
import { parseManifest, type ParsedManifest } from '../core/manifest';

const KEEP = 20;

export class ManifestCache {
  private readonly entries = new Map<string, { version: number; manifest: ParsedManifest }>();

  get(document: vscode.TextDocument): ParsedManifest {
    const key = document.uri.toString();
    const cached = this.entries.get(key);
    if (cached && cached.version === document.version) return cached.manifest;
    const manifest = parseManifest(document.getText());
    this.entries.delete(key);
    this.entries.set(key, { version: document.version, manifest });
    if (this.entries.size > KEEP) this.entries.delete(this.entries.keys().next().value!);
    return manifest;
  }

  forget(document: vscode.TextDocument): void {
    this.entries.delete(document.uri.toString());
  }
}
