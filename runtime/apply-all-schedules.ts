// Every Temporal Schedule the configuration asks for, made to match it: what `callsync schedules
// apply` does, and what `callsync accounts add` and `remove` do at once for the account they change.
import type { Client } from '@temporalio/client';
import type { CallsyncConfig } from '../config/schema';
import { applyContactSyncSchedules } from './contact-sync-schedule';
import { applyConversationsSchedules } from './conversations-schedule';
import { applyCrmOutcomesSchedules } from './outcomes-schedule';
import { applyRetentionSchedule } from './retention-schedule';
import { applySchedules, type ApplySchedulesResult } from './schedules';
import { applyTranscriptionSchedules } from './transcription-schedule';

export interface ApplyAllResult extends ApplySchedulesResult {
  retention: Awaited<ReturnType<typeof applyRetentionSchedule>>;
  transcription: Awaited<ReturnType<typeof applyTranscriptionSchedules>>;
  contacts: Awaited<ReturnType<typeof applyContactSyncSchedules>>;
  conversations: Awaited<ReturnType<typeof applyConversationsSchedules>>;
  outcomes: Awaited<ReturnType<typeof applyCrmOutcomesSchedules>>;
}

/** Applies the sync schedules and every other kind; `config` must hold the stored accounts too. */
export async function applyAllSchedules(
  client: Client,
  config: CallsyncConfig,
  opts: { triggerImmediately?: boolean } = {},
): Promise<ApplyAllResult> {
  const r = await applySchedules(client, config, opts);
  const retention = await applyRetentionSchedule(client, config);
  const transcription = await applyTranscriptionSchedules(client, config);
  const contacts = await applyContactSyncSchedules(client, config);
  const conversations = await applyConversationsSchedules(client, config);
  const outcomes = await applyCrmOutcomesSchedules(client, config);
  return { ...r, retention, transcription, contacts, conversations, outcomes };
}
