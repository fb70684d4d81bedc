/** Runs `kube-journey trace` in-process and keeps what it printed. */
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { runTrace, type TraceOptions } from '../../../src/cli/trace';

export class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** `runTrace` of `file` on 3 nodes with seed 1, text output 400 columns wide, unless `options` say otherwise. */
export async function traceCaptured(file: string, options: Partial<TraceOptions> = {}): Promise<{ code: number; out: string; err: string }> {
  const out = new Capture();
  const err = new Capture();
  const code = await runTrace({ file, nodes: 3, seed: 1, timeoutMs: 120_000, json: false, evidence: false, width: 400, out, err, ...options });
  return { code, out: out.text, err: err.text };
}

/**
 * Runs the CLI with `args` from the sources (tsx, as the tests do everywhere else; the bundle
 * behaves the same) and, like `| head -1`, closes its output after the first chunk.
 */
export async function runClosingOutputEarly(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, stderr };
}
