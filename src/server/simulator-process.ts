/**
 * Runs the simulator with its HTTP API in the current process. Used by `kube-journey simulate`
 * (foreground) and by the extension, which starts dist/simulator-server.js as a child process so
 * that a 150,000-pod simulation never blocks the editor.
 */
import { randomBytes } from 'node:crypto';
import { Simulator, type SimulatorOptions } from '../sim/simulator';
import { PacedDriver } from '../sim/driver';
import { defaultTimings, type Timings } from '../sim/context';
import { startApiServer, type RunningApiServer } from './api-server';
import { writeKubeconfig } from './kubeconfig';
import { makeServerCertificate } from './tls';
import { tuneHeapForSimulator } from './heap-tuning';

export interface SimulatorProcessOptions extends SimulatorOptions {
  port?: number;
  /** How much faster than a real cluster the components work (1 = real timings). */
  speed?: number;
  kubeconfigPath?: string;
  token?: string;
  /**
   * Virtual time to run before serving (a twin's restored objects settle, src/cli/twin-copy.ts
   * TWIN_SETTLE_MS): the clock starts this long before now, so that it still equals wall time once served.
   */
  settleMs?: number;
}

export interface RunningSimulator {
  simulator: Simulator;
  api: RunningApiServer;
  token: string;
  /** The certificate clients must trust (PEM). */
  caPem: string;
  kubeconfigPath?: string;
  stop(): Promise<void>;
}

export async function runSimulator(options: SimulatorProcessOptions): Promise<RunningSimulator> {
  tuneHeapForSimulator();
  // Clients compare timestamps with their own clock (kubectl's AGE column), so the served
  // simulator keeps virtual time equal to wall time; `speed` shortens the components' delays instead.
  const speed = options.speed ?? 1;
  // Made before the simulator so its clock starts at the wall time it is served at.
  const certificate = makeServerCertificate();
  const timings = Object.fromEntries(Object.entries({ ...defaultTimings, ...options.timings }).map(([key, ms]) => [key, ms / speed])) as unknown as Timings;
  const settleMs = options.settleMs ?? 0;
  const simulator = new Simulator({ ...options, timings, startTime: options.startTime ?? Date.now() - settleMs });
  if (settleMs > 0) simulator.runUntil(() => false, settleMs);
  const driver = new PacedDriver(simulator.clock, { speed: 1 });
  const token = options.token ?? randomBytes(24).toString('base64url');
  const api = await startApiServer({ simulator, driver, token, port: options.port, ...certificate });
  simulator.clock.advanceTo(Math.max(simulator.clock.now(), Date.now()));
  driver.start();
  if (options.kubeconfigPath) writeKubeconfig(options.kubeconfigPath, api.url, token, certificate.certPem);
  return {
    simulator,
    api,
    token,
    caPem: certificate.certPem,
    kubeconfigPath: options.kubeconfigPath,
    stop: async () => {
      driver.stop();
      await api.close();
    },
  };
}
