/**
 * The built-in simulator as a child process (dist/simulator-server.js, see src/server/main.ts):
 * a 150,000-pod simulation must never block the extension host. Started on first use; the child
 * exits when its stdin closes, so closing the pipe is how it is stopped, and an extension host
 * that dies takes it along. No `vscode` here: plain-Node tests start it through tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { configSourceNames, podSpecPath } from '../../core/journey/dependencies';
import type { KubeObject, PodSpec } from '../../core/k8s';
import type { ServerFailureLine, ServerReadyLine } from '../../protocol/simulator-server';

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
  /** Start as a twin of this kubeconfig context (a copy read with GET requests only, docs/twin.md). */
  twin?: TwinOptions;
}

export interface TwinOptions {
  context: string;
  /** The kubeconfig holding the context (default: KUBECONFIG, else ~/.kube/config). */
  kubeconfig?: string;
  /** The manifest about to be applied: the objects of it that exist in the cluster are copied too (identities only are passed). */
  manifestObjects?: readonly KubeObject[];
}

/** The child said in one line why it cannot start (a twin's context unreachable, its credentials refused). */
export class SimulatorStartError extends Error {
  override readonly name = 'SimulatorStartError';
}

function isFailureLine(value: unknown): value is ServerFailureLine {
  return typeof value === 'object' && value !== null && typeof (value as ServerFailureLine).failure === 'string';
}

type Identity = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

/**
 * What the twin copies for a manifest, as identities: each object, and the ConfigMaps and Secrets
 * its pod templates read (the twin copies those that exist, src/cluster/twin-read.ts), in the
 * object's namespace. A ConfigMap or Secret of the default namespace stays without one: the child
 * reads it in its context's namespace, as the apply will.
 */
export function twinObjectIdentities(objects: readonly KubeObject[]): Identity[] {
  const identities = new Map<string, Identity>();
  const add = (apiVersion: string, kind: string, name: string, namespace: string | undefined): void => {
    identities.set(`${kind} ${namespace ?? ''} ${name}`, { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}) } });
  };
  for (const object of objects) {
    if (!object.apiVersion || !object.kind || !object.metadata?.name) continue;
    const namespace = object.metadata.namespace;
    add(object.apiVersion, object.kind, object.metadata.name, namespace);
    const path = podSpecPath(object.kind);
    if (!path) continue;
    let spec: unknown = object;
    for (const key of path.split('.')) spec = typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>)[key] : undefined;
    const names = configSourceNames(spec as PodSpec | undefined);
    for (const name of names.configMaps) add('v1', 'ConfigMap', name, namespace);
    for (const name of names.secrets) add('v1', 'Secret', name, namespace);
  }
  return [...identities.values()];
}

/** The child's arguments for `options`; a manifest object goes as its identity only (no data on a command line). */
export function simulatorArgs(options: SimulatorOptions): string[] {
  const args = ['--nodes', String(options.nodes), '--speed', String(options.speed), ...(options.maxPods === undefined ? [] : ['--max-pods', String(options.maxPods)]), ...(options.zones ? ['--zones', String(options.zones)] : []), '--kubeconfig', options.kubeconfigPath];
  const twin = options.twin;
  if (!twin) return args;
  const identities = twinObjectIdentities(twin.manifestObjects ?? []);
  return [...args, '--twin-context', twin.context, ...(twin.kubeconfig ? ['--twin-kubeconfig', twin.kubeconfig] : []), ...(identities.length > 0 ? ['--twin-objects', JSON.stringify(identities)] : [])];
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
    const args = [...launch.args, ...simulatorArgs(options)];
    const child = spawn(launch.command, args, { cwd: launch.cwd, env: { ...process.env, ...launch.env }, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const stderrLines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderrLines.push(line);
      if (stderrLines.length > 20) stderrLines.shift();
      options.onLog?.(line);
    });
    const lines = createInterface({ input: child.stdout! });
    // A twin reads the whole cluster first: 20 s for 5,000 nodes and 150,000 pods (README "Benchmark").
    const timeoutMs = options.startTimeoutMs ?? (options.twin ? 180_000 : 30_000);
    try {
      const ready = await new Promise<ServerReadyLine>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the simulator did not start within ${timeoutMs / 1000} s`)), timeoutMs);
        const fail = (error: Error): void => {
          clearTimeout(timer);
          reject(error);
        };
        child.once('error', fail);
        // 'close', not 'exit': stdout (a failure line) and stderr may still be draining at 'exit'.
        child.once('close', (code, signal) => {
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
          else if (isFailureLine(parsed)) reject(new SimulatorStartError(parsed.failure));
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
