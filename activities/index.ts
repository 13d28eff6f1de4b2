import { createAudioActivities } from './audio-activities';
import { createCallActivities } from './call-activities';
import type { ActivityDeps } from './deps';
import { createSyncActivities } from './sync-activities';
import { createWebhookActivities } from './webhook-activities';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSyncActivities(deps),
    ...createAudioActivities(deps),
    ...createCallActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
