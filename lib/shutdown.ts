// Ordered shutdown of the services a process started: the last started stops first, each step is
// timed and bounded, so one stuck step (a pool waiting for a client an abandoned activity holds, a
// child that ignores SIGTERM) is reported by name and cannot keep Ctrl-C from ending the process.
import type { Logger } from './logger';

/** A step that takes longer than this is reported, so a slow stop can be traced to its service. */
const SLOW_STEP_MS = 5_000;
const DEFAULT_STEP_TIMEOUT_MS = 10_000;

export interface StepOptions {
  /** How long to wait for the step (default 10 s). */
  timeoutMs?: number;
  /**
   * The step stops another process (a database server): when it does not finish, that process may
   * outlive this one. In-process steps (pools, connections, the worker) end with the process anyway.
   */
  external?: boolean;
}

interface ShutdownStep extends Required<StepOptions> {
  name: string;
  stop: () => Promise<void> | void;
}

export interface ShutdownReport {
  /** Steps that failed or did not finish within their time, by name. */
  unfinished: string[];
  /** The unfinished steps that stop another process, which may still be running. */
  leftRunning: string[];
}

export class Shutdown {
  readonly #steps: ShutdownStep[] = [];

  /** Registers how to stop what was just started; `timeoutMs` bounds the wait for it. */
  add(name: string, stop: () => Promise<void> | void, opts: StepOptions = {}): void {
    this.#steps.push({
      name,
      stop,
      timeoutMs: opts.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
      external: opts.external ?? false,
    });
  }

  /** Runs every registered step, newest first; a failed or timed-out step is logged and skipped. */
  async run(logger?: Logger): Promise<ShutdownReport> {
    const unfinished: string[] = [];
    const leftRunning: string[] = [];
    while (this.#steps.length) {
      const step = this.#steps.pop()!;
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), step.timeoutMs);
        timer.unref();
      });
      const outcome = await Promise.race([
        Promise.resolve()
          .then(step.stop)
          .then(
            () => 'stopped' as const,
            (err: unknown) => {
              logger?.error({ err, step: step.name }, `stopping ${step.name} failed`);
              return 'failed' as const;
            },
          ),
        timedOut,
      ]);
      clearTimeout(timer);
      const ms = Date.now() - started;
      if (outcome !== 'stopped') {
        unfinished.push(step.name);
        if (step.external) leftRunning.push(step.name);
      }
      if (outcome === 'timeout') {
        logger?.warn(
          { step: step.name, ms },
          `stopping ${step.name} did not finish within ${step.timeoutMs / 1000} s; going on`,
        );
      } else if (outcome === 'stopped') {
        if (ms > SLOW_STEP_MS)
          logger?.warn({ step: step.name, ms }, `stopping ${step.name} took ${(ms / 1000).toFixed(1)} s`);
        else logger?.debug({ step: step.name, ms }, `stopped ${step.name}`);
      }
    }
    return { unfinished, leftRunning };
  }
}
