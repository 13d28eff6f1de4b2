import { createAccountSyncActivities } from './account-sync-activities';
import { createAudioActivities } from './audio-activities';
import { createCallActivities } from './call-activities';
import { createCallbackActivities } from './callback-activities';
import { createCallCrm } from './call-crm';
import { createCallCatchUpActivities } from './call-catch-up';
import { createCallRetryActivities } from './call-failure-retry';
import type { ActivityDeps } from './deps';
import { createDialActivities } from './dial-activities';
import { createReportActivities } from './report-activities';
import { withFailureMappingAll } from './failures';
import { createReportDeliveryActivities } from './report-delivery-activities';
import { createSyncActivities } from './sync-activities';
import { createWebhookActivities } from './webhook-activities';
import { createTranscriptionActivities } from './transcription-activities';
import { createErasureActivities } from './erasure-activities';
import { createQuarantineRetryActivities } from './quarantine-retry-activities';
import { createContactSyncActivities } from './contact-sync-activities';
import { createScreenPopActivities } from './screen-pop-activities';
import { createConversationActivities } from './conversation-activities';
import { createOutcomeActivities } from './outcome-activities';

export type { ActivityDeps } from './deps';

/**
 * Every activity the worker registers, built from injected dependencies. Each one goes through the
 * one failure mapping (and heartbeats while it runs), wrapped here so no activity can forget it.
 */
export function createActivities(deps: ActivityDeps) {
  // Call logs and callback tasks share the CRM's caches and this worker's batches.
  const callCrm = createCallCrm(deps);
  const sync = createSyncActivities(deps);
  const audio = createAudioActivities(deps);
  const reports = createReportActivities(deps);
  return withFailureMappingAll({
    ...sync,
    ...audio,
    ...createAccountSyncActivities(sync, audio, reports),
    ...createCallActivities(deps, callCrm),
    ...createCallbackActivities(deps, callCrm),
    ...createCallCatchUpActivities(deps),
    ...createCallRetryActivities(deps),
    ...createDialActivities(deps),
    ...createWebhookActivities(deps),
    ...reports,
    ...createReportDeliveryActivities(deps),
    ...createTranscriptionActivities(deps),
    ...createErasureActivities(deps),
    ...createQuarantineRetryActivities(deps),
    ...createContactSyncActivities(deps),
    ...createScreenPopActivities(deps),
    ...createConversationActivities(deps),
    ...createOutcomeActivities(deps),
  });
}

export type Activities = ReturnType<typeof createActivities>;
