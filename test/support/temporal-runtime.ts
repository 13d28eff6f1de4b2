import { DefaultLogger, Runtime } from '@temporalio/worker';

let installed = false;

/** Installs the Temporal runtime once per test process with warnings-only logging. */
export function quietTemporalRuntime(): void {
  if (installed) return;
  installed = true;
  Runtime.install({ logger: new DefaultLogger('WARN') });
}
