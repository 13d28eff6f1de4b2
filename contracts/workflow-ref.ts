// Callers name a workflow through its contract, never by a string: a rename then breaks the build.
import type { Workflow } from '@temporalio/common';

/**
 * A stand-in for a workflow function: it carries the workflow's registered name and its signature,
 * so `client.workflow.start(ref, …)`, `signalWithStart` and schedule actions are typed and named
 * without importing workflow code, which only the worker bundle loads. Calling it throws.
 */
export function workflowRef<F extends Workflow>(name: string): F {
  const ref = (): never => {
    throw new Error(`${name} is a workflow: start it through a Temporal client`);
  };
  // The Temporal client takes the workflow type from the function's name.
  Object.defineProperty(ref, 'name', { value: name });
  return ref as unknown as F;
}
