/**
 * Test rigs for the cluster connection: the simulator served over HTTPS as `runSimulator` serves
 * it, but with an API server that can be stopped and started again on the same port over the same
 * simulator (an apiserver restart), and an HTTPS proxy in front of it that can forbid paths and
 * cut every connection.
 */
import type { ClientRequest } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { defaultTimings, type Timings } from '../../src/sim/context';
import { PacedDriver } from '../../src/sim/driver';
import { Simulator, type SimulatorOptions } from '../../src/sim/simulator';
import { startApiServer, type RunningApiServer } from '../../src/server/api-server';
import { writeKubeconfig } from '../../src/server/kubeconfig';
import { makeServerCertificate, type ServerCertificate } from '../../src/server/tls';

export interface ServedSimulator {
  simulator: Simulator;
  token: string;
  certificate: ServerCertificate;
  port: number;
  url: string;
  /** Closes the API server (cutting every connection); the simulator keeps running. */
  stopApi(): Promise<void>;
  /** Starts a new API server on the same port over the same simulator. */
  startApi(): Promise<void>;
  writeKubeconfig(path: string, url?: string): void;
  stop(): Promise<void>;
}

/** Like runSimulator: wall-clock virtual time, component delays divided by `speed`. */
export async function serveSimulator(options: SimulatorOptions & { speed: number }): Promise<ServedSimulator> {
  const certificate = makeServerCertificate();
  const timings = Object.fromEntries(Object.entries({ ...defaultTimings, ...options.timings }).map(([key, ms]) => [key, ms / options.speed])) as unknown as Timings;
  const simulator = new Simulator({ ...options, timings, startTime: Date.now() });
  const driver = new PacedDriver(simulator.clock, { speed: 1 });
  const token = randomBytes(24).toString('base64url');
  let api: RunningApiServer | undefined = await startApiServer({ simulator, driver, token, ...certificate });
  const port = api.port;
  driver.start();
  return {
    simulator,
    token,
    certificate,
    port,
    url: api.url,
    async stopApi() {
      await api?.close();
      api = undefined;
    },
    async startApi() {
      api = await startApiServer({ simulator, driver, token, port, ...certificate });
    },
    writeKubeconfig(path, url = `https://127.0.0.1:${port}`) {
      writeKubeconfig(path, url, token, certificate.certPem);
    },
    async stop() {
      driver.stop();
      await api?.close();
    },
  };
}

export interface FaultProxy {
  url: string;
  /** Answer requests whose path matches with this Status (403 Forbidden as RBAC would, 404 as a real cluster for the internals stream). */
  refuse(pattern: RegExp, code: number, reason: string, message: string): void;
  /** Cut every open connection, client and upstream side. */
  dropConnections(): void;
  /** Requests seen, as `METHOD path?query`. */
  requests: string[];
  close(): Promise<void>;
}

/** An HTTPS reverse proxy (same certificate, so the simulator's kubeconfig CA still verifies it). */
export async function startFaultProxy(target: ServedSimulator): Promise<FaultProxy> {
  const refused: { pattern: RegExp; code: number; reason: string; message: string }[] = [];
  const sockets = new Set<Socket>();
  const upstream = new Set<ClientRequest>();
  const requests: string[] = [];
  const server: Server = createServer({ cert: target.certificate.certPem, key: target.certificate.keyPem }, (req, res) => {
    const path = req.url ?? '/';
    requests.push(`${req.method} ${path}`);
    const rule = refused.find((f) => f.pattern.test(path.split('?')[0]));
    if (rule) {
      const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: rule.message, reason: rule.reason, code: rule.code });
      res.writeHead(rule.code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const forward = httpsRequest(
      { host: '127.0.0.1', port: target.port, path, method: req.method, headers: req.headers, ca: target.certificate.certPem },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.add(forward);
    forward.on('close', () => upstream.delete(forward));
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    refuse(pattern, code, reason, message) {
      refused.push({ pattern, code, reason, message });
    },
    dropConnections() {
      for (const socket of sockets) socket.destroy();
      for (const forward of upstream) forward.destroy();
    },
    requests,
    close() {
      for (const socket of sockets) socket.destroy();
      for (const forward of upstream) forward.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
