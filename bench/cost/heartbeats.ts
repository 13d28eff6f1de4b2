// Activity heartbeats leave no history event, yet each one that reaches the server is an Action. The
// worker's Temporal runtime (the Rust core every TypeScript worker runs on) counts its gRPC requests
// by operation; installed before the stack starts, with a Prometheus endpoint, it tells how many
// RecordActivityTaskHeartbeat requests the worker sent and how many failed. No product code changes:
// the worker of the stack runs on whichever runtime the process installed first.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { freePort } from '../../lib/free-port';

export interface HeartbeatMeter {
  /** Heartbeats that reached the server so far (requests less failed requests). */
  read(): Promise<number>;
  url: string;
}

/** Installs the runtime with metrics; call before anything else installs one. */
export async function installHeartbeatMeter(): Promise<HeartbeatMeter> {
  const port = await freePort();
  Runtime.install({
    logger: new DefaultLogger('ERROR'),
    telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}` } } },
  });
  const url = `http://127.0.0.1:${port}/metrics`;
  return { url, read: async () => heartbeatsIn(await (await fetch(url)).text()) };
}

/** RecordActivityTaskHeartbeat requests less failures, from a Prometheus text exposition. */
export function heartbeatsIn(text: string): number {
  const sum = (metric: RegExp): number =>
    text
      .split('\n')
      .filter((l) => metric.test(l) && /operation="RecordActivityTaskHeartbeat(ById)?"/.test(l))
      .reduce((a, l) => a + Number(l.trim().split(/\s+/).pop()), 0);
  return sum(/^temporal_request(_total)?\{/) - sum(/^temporal_request_failure(_total)?\{/);
}
