/**
 * Entry of dist/simulator-server.js, the extension's simulator child (src/server/child.ts), with
 * the twin of a cluster: `--twin-context CTX` copies that context (src/cli/twin-copy.ts, GET
 * requests only) before serving. The cluster code is imported on demand; in the bundle that
 * import is a require of dist/cluster.js, the extension's own cluster bundle (esbuild.mjs), so the
 * plain simulator neither loads nor ships @kubernetes/client-node a second time.
 */
import { runSimulatorChild, type TwinMaker } from '../server/child';
import { copyClusterForTwin, TWIN_SETTLE_MS } from './twin-copy';

const makeTwin: TwinMaker = async (request) => {
  const modules = await import('../cluster/for-extension');
  const copied = await copyClusterForTwin(modules, request);
  if ('failure' in copied) return copied;
  const { copy } = copied;
  return { restore: copy.objects, settleMs: TWIN_SETTLE_MS, summary: { context: copied.context, server: copied.server, header: copied.header, copied: copy.counts, readMs: copy.readMs } };
};

runSimulatorChild(process.argv.slice(2), makeTwin);
