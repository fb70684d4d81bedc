/**
 * The built-in simulator as a child process (dist/simulator-server.js, see src/server/main.ts):
 * a 150,000-pod simulation must never block the extension host. Started on first use; the child
 * exits when its stdin closes, so closing the pipe is how it is stopped, and an extension host
 * that dies takes it along. No `vscode` here: plain-Node tests start it through tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ServerReadyLine } from '../../protocol/simulator-server';

export interface SimulatorLaunch {
  /** The executable: the extension host's own Node (process.execPath) or `node`. */
  command: string;
  /** Arguments before the simulator's options: the script, or `--import tsx src/server/main.ts`. */
  args: string[];
  /** Extra environment (ELECTRON_RUN_AS_NODE=1 when command is the editor's executable). */
  env?: Record<string, string>;
  cwd?: string;
}

export interface SimulatorOptions {
  nodes: number;
  speed: number;
  /** The simulator's pod budget (default: the simulator's own). */
  maxPods?: number;
  /** Zones the nodes are spread over (default none). */
  zones?: number;
  kubeconfigPath: string;
  /** Give up waiting for the ready line after this long (default 30 s). */
  startTimeoutMs?: number;
  /** Each line the child writes to stderr. */
  onLog?: (line: string) => void;
}

function isReadyLine(value: unknown): value is ServerReadyLine {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.url === 'string' && typeof v.token === 'string' && typeof v.caPem === 'string';
}

export class SimulatorChild {
  private exited = false;
  private readonly exitListeners: ((code: number | null) => void)[] = [];
  private readonly exitPromise: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly ready: ServerReadyLine,
    readonly options: SimulatorOptions,
  ) {
    this.exitPromise = new Promise((resolve) => {
      const done = (code: number | null): void => {
        if (this.exited) return;
        this.exited = true;
        for (const listener of this.exitListeners) listener(code);
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode);
      child.once('exit', (code) => done(code));
    });
  }

  static async start(launch: SimulatorLaunch, options: SimulatorOptions): Promise<SimulatorChild> {
    const args = [...launch.args, '--nodes', String(options.nodes), '--speed', String(options.speed), ...(options.maxPods === undefined ? [] : ['--max-pods', String(options.maxPods)]), ...(options.zones ? ['--zones', String(options.zones)] : []), '--kubeconfig', options.kubeconfigPath];
    const child = spawn(launch.command, args, { cwd: launch.cwd, env: { ...process.env, ...launch.env }, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const stderrLines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderrLines.push(line);
      if (stderrLines.length > 20) stderrLines.shift();
      options.onLog?.(line);
    });
    const lines = createInterface({ input: child.stdout! });
    const timeoutMs = options.startTimeoutMs ?? 30_000;
    try {
      const ready = await new Promise<ServerReadyLine>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the simulator did not start within ${timeoutMs / 1000} s`)), timeoutMs);
        const fail = (error: Error): void => {
          clearTimeout(timer);
          reject(error);
        };
        child.once('error', fail);
        child.once('exit', (code, signal) => {
          // stderr may still be draining: give its last lines a moment to arrive.
          setImmediate(() => fail(new Error(`the simulator exited before it was ready (${signal ?? `exit code ${code}`})${stderrLines.length ? `: ${stderrLines.join('\n')}` : ''}`)));
        });
        lines.once('line', (line) => {
          clearTimeout(timer);
          let parsed: unknown;
          try {
            parsed = JSON.parse(line);
          } catch {
            parsed = undefined;
          }
          if (isReadyLine(parsed)) resolve(parsed);
          else reject(new Error(`the simulator printed an unexpected first line: ${line.slice(0, 200)}`));
        });
      });
      lines.on('line', (line) => options.onLog?.(line));
      return new SimulatorChild(child, ready, options);
    } catch (error) {
      child.stdin?.end();
      child.kill();
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !this.exited;
  }

  /** Called once when the process ends, for whatever reason. */
  onExit(listener: (code: number | null) => void): void {
    this.exitListeners.push(listener);
  }

  /** Closes the child's stdin (it stops by itself) and waits; kills it if it lingers. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.exited) return;
    this.child.stdin?.end();
    const timer = setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, graceMs);
    await this.exitPromise;
    clearTimeout(timer);
  }
}
