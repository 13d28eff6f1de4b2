// Erasure outside the warehouse tables: archived audio, Temporal histories, and (when configured)
// the CRM records callsync created. Each is idempotent: what is already gone counts as nothing.
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { sql } from 'kysely';
import type { CountryCode } from 'libphonenumber-js/max';
import { deletesCrmRecordsOf } from '../config/account-settings';
import { audioObjectKey } from '../connectors/object-store';
import { destinationIdOf, type CrmConnector } from '../connectors/crm/crm-connector';
import {
  addErasureCounts,
  addRemovedFiles,
  audioRecordedAt,
  reportRunByFile,
  type CrmObjectKind,
  type PersonCall,
} from '../connectors/postgres';
import type { ErasureSubject } from '../lib/erasure/identity';
import {
  callbackWorkflowId,
  callWorkflowId,
  legacyCallbackWorkflowId,
  screenPopWorkflowId,
  type ErasePersonInput,
} from '../contracts';
import { subjectMatcher } from '../lib/erasure/matchers';
import { unknownContactKey } from '../connectors/crm/upsert';
import { callerKey } from '../lib/caller-key';
import { erasureHashKey, payloadCodecFromConfig, workflowIdKey } from '../lib/encryption-keys';
import { historiesNaming, namesPerson, type HistoryHit } from './erasure-histories';
import { rebuildRemovedReports } from './erasure-report-rebuild';
import { eraseFromReportFiles, regenerateCommand, reportDirs } from './erasure-reports';
import { textEraser } from '../lib/erasure/report-cells';
import type { ActivityDeps } from './deps';

type Step = ErasePersonInput & { erasureId: string };

/** What an erasure step knows about the person, read from the request row. */
export interface ErasureContext {
  subject: ErasureSubject;
  names: string[];
  calls: PersonCall[];
  /** CRM keys of their SMS and voice messages (`<account>:sms:<id>`, `<account>:voicemail:<id>`). */
  messages: string[];
}

/** gRPC NOT_FOUND: the execution (or run) is already gone. */
const isNotFound = (err: unknown): boolean =>
  err instanceof WorkflowNotFoundError || (err as { code?: unknown } | null)?.code === 5;

export function createErasureExternalActivities(
  deps: ActivityDeps,
  context: (subjectHash: string) => Promise<ErasureContext>,
) {
  const { db } = deps.warehouse;
  const idKey = workflowIdKey(deps.config.temporal);
  const hashKey = erasureHashKey(deps.config);
  const country = deps.config.crm.defaultCountry as CountryCode;

  return {
    /**
     * Deletes the archived audio of the person's calls (recordings and voice messages) and marks the
     * rows' audio as erased (lost), so the archiver does not fetch it again.
     */
    async eraseArchive(input: Step): Promise<Record<string, number>> {
      const { calls } = await context(input.subjectHash);
      let deleted = 0;
      if (calls.length === 0) return {};
      for (const stream of ['recordings', 'voicemessages'] as const) {
        const rows = await db
          .selectFrom(stream)
          .select(['account', 'id', 'audio_uri', audioRecordedAt(stream).as('recorded_at')])
          .where(
            sql<boolean>`(account, live_id) IN (SELECT * FROM unnest(${calls.map((c) => c[0])}::text[], ${calls.map((c) => c[1])}::bigint[]))`,
          )
          .where((eb) => eb.or([eb('audio_uri', 'is not', null), eb('audio_lost_at', 'is', null)]))
          .execute();
        for (const row of rows) {
          Context.current().heartbeat({ stream, id: row.id });
          if (row.audio_uri !== null) {
            const key = audioObjectKey(stream, row.account, row.id, row.recorded_at);
            if (await deps.archive.delete(key)) deleted++;
          }
          await db
            .updateTable(stream)
            .set({
              audio_uri: null,
              audio_bytes: null,
              audio_md5: null,
              audio_archived_at: null,
              audio_lost_at: sql`now()`,
              audio_lost_reason: 'erased',
            })
            .where('account', '=', row.account)
            .where('id', '=', row.id)
            .execute();
        }
      }
      const counts = deleted > 0 ? { 'archive.audio': deleted } : {};
      await addErasureCounts(db, input.erasureId, counts);
      return counts;
    },

    /**
     * Deletes from Temporal every run of the person's workflows: their callbacks (hashed id, and the
     * old id form with the number), their calls' lifecycles and screen-pops, and every other history
     * naming them (erasure-histories.ts). A running one is terminated with it.
     */
    async eraseHistories(input: Step): Promise<Record<string, number>> {
      const found = await context(input.subjectHash);
      const { subject, calls } = found;
      const temporal = deps.temporal;
      if (!temporal) throw new Error('erasure needs a Temporal client to delete histories');
      const ids = new Set(calls.map(([account, callId]) => callWorkflowId(account, callId)));
      for (const [account, callId] of calls) ids.add(screenPopWorkflowId(account, callId));
      if (subject.kind === 'number') {
        for (const a of deps.config.accounts) {
          ids.add(callbackWorkflowId(a.name, callerKey(idKey, a.name, subject.value)));
          ids.add(legacyCallbackWorkflowId(a.name, subject.value));
        }
      }
      const namespace = temporal.options.namespace;
      let deleted = 0;
      const remove = async (workflowId: string, runId: string) => {
        try {
          await temporal.workflowService.deleteWorkflowExecution({
            namespace,
            workflowExecution: { workflowId, runId },
          });
          deleted++;
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      };
      for (const workflowId of ids) {
        Context.current().heartbeat(deleted);
        const runs: string[] = [];
        for await (const w of temporal.workflow.list({
          query: `WorkflowId = ${JSON.stringify(workflowId)}`,
        })) {
          runs.push(w.runId);
        }
        // The latest run too, should visibility not list it yet.
        const latest = await temporal.workflow
          .getHandle(workflowId)
          .describe()
          .then((d) => d.runId)
          .catch((err: unknown) => {
            if (isNotFound(err)) return null;
            throw err;
          });
        if (latest && !runs.includes(latest)) runs.push(latest);
        for (const runId of runs) await remove(workflowId, runId);
      }
      // Every other history that names them (their SMS's workflow, any type whose input, result or
      // failure holds their number, e-mail or name), found by reading each one.
      const codec = payloadCodecFromConfig(deps.config.temporal);
      const names = namesPerson(subjectMatcher(hashKey, subject, country), found.names);
      const hits: HistoryHit[] = [];
      for await (const hit of historiesNaming(temporal, codec, names, (n) => Context.current().heartbeat(n)))
        hits.push(hit);
      for (const hit of hits) await remove(hit.workflowId, hit.runId);
      const counts = deleted > 0 ? { 'temporal.runs': deleted } : {};
      await addErasureCounts(db, input.erasureId, counts);
      return counts;
    },

    /**
     * Rewrites the report files (text and XLSX) and deletes the PDFs and outbox messages that name
     * the person (erasure-reports.ts); each PDF deleted is recorded on the erasure with the command
     * that builds it again, before it is deleted (a retry records nothing twice).
     */
    async eraseReports(input: Step): Promise<Record<string, number>> {
      const { subject, names } = await context(input.subjectHash);
      const matcher = subjectMatcher(hashKey, subject, country);
      // A file named for them is recorded under its name with their identifiers and names erased.
      const erasePath = textEraser(matcher, names);
      const counts: Record<string, number> = {};
      for (const [place, dir] of reportDirs(deps.config)) {
        const done = await eraseFromReportFiles(
          dir,
          matcher,
          names,
          (file) => Context.current().heartbeat(file.length),
          async (file) => {
            const run = await reportRunByFile(db, file);
            await addRemovedFiles(db, input.erasureId, [
              {
                file: erasePath(file),
                regenerate: regenerateCommand(run),
                ...(run ? { runId: Number(run.id) } : {}),
              },
            ]);
          },
        );
        if (done.rewritten > 0) counts[`${place}.rewritten`] = done.rewritten;
        if (done.deleted > 0) counts[`${place}.deleted`] = done.deleted;
      }
      await addErasureCounts(db, input.erasureId, counts);
      return counts;
    },

    /**
     * Builds again, from the erased warehouse, the report files eraseReports deleted that a report
     * run wrote (erasure-report-rebuild.ts); after the warehouse steps.
     */
    async eraseRebuildReports(input: Step): Promise<Record<string, number>> {
      const { subject } = await context(input.subjectHash);
      const done = await rebuildRemovedReports(
        deps,
        input.erasureId,
        subjectMatcher(hashKey, subject, country),
        (file) => Context.current().heartbeat(file.length),
      );
      const counts = done.rebuilt > 0 ? { 'reports.files.rebuilt': done.rebuilt } : {};
      await addErasureCounts(db, input.erasureId, counts);
      return counts;
    },

    /**
     * Deletes, through the CRM connector, the call logs of the person's calls, their callback tasks,
     * the logs of their SMS and voice messages and the contact made for them as an unknown caller
     * that callsync created (crm_objects), then the mappings. Only in the CRMs of accounts with
     * erasure.deleteCrmRecords (their own, accounts[].overrides.erasure, else the global one).
     */
    async eraseCrmRecords(input: Step): Promise<Record<string, number>> {
      const deleting = deps.config.accounts
        .map((a) => a.name)
        .filter((account) => deletesCrmRecordsOf(deps.config, account));
      if (deleting.length === 0) return {};
      const { subject, calls, messages } = await context(input.subjectHash);
      const callKeys = calls.map(([account, callId]) => `${account}:${callId}`);
      const rows = await db
        .selectFrom('crm_objects')
        .selectAll()
        .where('account', 'in', deleting)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('kind', '=', 'call_log'),
              eb('source_key', 'in', callKeys.length > 0 ? callKeys : ['']),
            ]),
            ...(subject.kind === 'number'
              ? [
                  eb.and([
                    eb('kind', '=', 'task'),
                    eb('source_key', 'like', `%:callback:${subject.value}:%`),
                  ]),
                  // The contact callsync created for them as an unknown caller (crm.createUnknownContacts).
                  eb.and([
                    eb('kind', '=', 'contact'),
                    eb(
                      'source_key',
                      'in',
                      deleting.map((account) => unknownContactKey(account, subject.value)),
                    ),
                  ]),
                ]
              : []),
            ...(messages.length > 0
              ? [eb.and([eb('kind', 'in', ['sms', 'voicemail']), eb('source_key', 'in', messages)])]
              : []),
          ]),
        )
        .execute();
      const counts: Record<string, number> = {};
      for (const row of rows) {
        Context.current().heartbeat(row.source_key.length);
        const connector = deps.crm(row.account);
        // A mapping of another destination (the account moved to another CRM, portal or org since)
        // cannot be reached through this connector: left, with its mapping, for `erase --verify` to list.
        if (destinationIdOf(connector) !== row.destination) continue;
        const remove = deleterOf(connector, row.kind);
        // A connector that cannot delete leaves the record (and its mapping): counted as kept.
        if (!remove) {
          counts[`crm.${connector.name}.${row.kind}.kept`] =
            (counts[`crm.${connector.name}.${row.kind}.kept`] ?? 0) + 1;
          continue;
        }
        await remove(row.crm_id);
        await db
          .deleteFrom('crm_objects')
          .where('destination', '=', row.destination)
          .where('kind', '=', row.kind)
          .where('source_key', '=', row.source_key)
          .execute();
        // Counted by type (crm.hubspot.call_log): the identity holds a token digest or a URL.
        const name = `crm.${connector.name}.${row.kind}`;
        counts[name] = (counts[name] ?? 0) + 1;
      }
      await addErasureCounts(db, input.erasureId, counts);
      return counts;
    },
  };
}

/** How the connector deletes a record of the kind callsync created; undefined where it cannot. */
function deleterOf(
  connector: CrmConnector,
  kind: CrmObjectKind,
): ((crmId: string) => Promise<void>) | undefined {
  switch (kind) {
    case 'call_log':
      return connector.deleteCallLog && ((id) => connector.deleteCallLog!(id));
    case 'task':
      return connector.deleteTask && ((id) => connector.deleteTask!(id));
    case 'sms':
    case 'voicemail':
      return connector.deleteMessageLog && ((id) => connector.deleteMessageLog!(id, kind));
    case 'contact':
      return connector.deleteContact && ((id) => connector.deleteContact!(id));
    default:
      return undefined;
  }
}
