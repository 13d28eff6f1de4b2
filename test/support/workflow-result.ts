// The result of a workflow something else starts (the receiver's fast path): waits until it exists.
import type { Client } from '@temporalio/client';
import { eventually } from './eventually';

export async function workflowResult<T>(client: Client, workflowId: string): Promise<T> {
  const handle = await eventually(async () => {
    const h = client.workflow.getHandle(workflowId);
    return (await h.describe().then(
      () => true,
      () => false,
    ))
      ? h
      : undefined;
  }, `workflow ${workflowId}`);
  return (await handle.result()) as T;
}
