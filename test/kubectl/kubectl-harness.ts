/**
 * The real kubectl binaries installed on the machine, and how the kubectl suites run them against
 * a simulator: see README "kubectl versions".
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';

export interface InstalledKubectl {
  minor: number;
  path: string;
}

export function installedKubectls(): InstalledKubectl[] {
  if (!existsSync(KUBECTL_DIR)) return [];
  return readdirSync(KUBECTL_DIR)
    .map((file) => /^kubectl\.1\.(\d+)$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ minor: Number(m[1]), path: join(KUBECTL_DIR, m[0]) }))
    .sort((a, b) => a.minor - b.minor);
}

/** The oldest and the newest kubectl that can apply against a server without OpenAPI v2 (1.29+). */
export function applyCapableVersionsUnderTest(kubectls: InstalledKubectl[]): InstalledKubectl[] {
  const applyCapable = kubectls.filter((k) => k.minor >= 29);
  return [...new Map([applyCapable[0], applyCapable[applyCapable.length - 1]].filter(Boolean).map((k) => [k.minor, k])).values()];
}

export interface Kubectl {
  (...args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
}

export function kubectlFor(binary: string, kubeconfig: string, home: string): Kubectl {
  return async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(binary, args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: home }, timeout: 90_000 });
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; code?: number };
      return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
    }
  };
}

/** Polls `probe` until it returns a value, failing with `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs kubectl and returns its trimmed stdout, failing the test with its stderr when it fails. */
export async function succeeds(kubectl: Kubectl, ...args: string[]): Promise<string> {
  const result = await kubectl(...args);
  assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}
