// `callsync erase --number <n> | --email <e>`: erases one person everywhere through the erasePerson
// workflow and prints what it changed; `callsync erase --status` lists recent erasures;
// `callsync erase --verify <n>` lists what is left of them (erase-verify.ts). The identifier
// goes only into the short-lived erasure_requests row; the workflow's id and arguments carry its hash.
import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import type { CountryCode } from 'libphonenumber-js/max';
import type { CallsyncConfig } from '../../config/schema';
import { erasePersonWorkflow, erasureWorkflowId, type ErasePersonResult } from '../../contracts';
import {
  createDatabase,
  migrateToLatest,
  putErasureRequest,
  recentErasures,
  type ErasureRow,
  type WarehouseDatabase,
} from '../../connectors/postgres';
import { postgresSsl } from '../../connectors/postgres/tls';
import { identifierHash, parseSubject } from '../../lib/erasure/identity';
import { erasureHashKey } from '../../lib/encryption-keys';
import {
  cliLogger,
  connectTemporal,
  globalOptions,
  loadCliConfig,
  requireRunningStack,
  resolveDatabase,
} from '../context';
import { formatVerification, verifyErasure } from './erase-verify';

/** The "erasures" section of `status` and `erase --status`: one line per erasure, no identifiers. */
export function formatErasures(rows: readonly ErasureRow[]): string {
  if (rows.length === 0) return '';
  const lines = rows.map((r) => {
    const counts = Object.entries((r.counts ?? {}) as Record<string, number>)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const when = new Date(r.requested_at).toISOString();
    const error = r.error ? `  error: ${r.error}` : '';
    // Report files it deleted (PDFs naming them): built again, or the command that builds each.
    const removed = (r.removed_files ?? [])
      .map((f) =>
        f.rebuilt
          ? `\n    rebuilt ${f.file} (report run ${f.runId}) from the erased warehouse`
          : `\n    removed ${f.file}: ${f.regenerate}`,
      )
      .join('');
    return `${when}  ${r.kind} ${r.subject_hash.slice(0, 12)}…  ${r.status}  ${counts || 'nothing found'}${error}${removed}`;
  });
  return [`\nERASURES (latest ${rows.length}; table erasures)`, ...lines].join('\n');
}

/** Stores the request and runs (or joins) the erasure workflow; resolves with what it changed. */
export async function runErasure(
  config: CallsyncConfig,
  warehouse: WarehouseDatabase,
  temporal: Client,
  input: { number?: string; email?: string },
): Promise<ErasePersonResult> {
  const subject = parseSubject(input, config.crm.defaultCountry as CountryCode);
  const subjectHash = identifierHash(erasureHashKey(config), subject.kind, subject.value);
  await putErasureRequest(warehouse.db, { subjectHash, kind: subject.kind, subject: subject.value });
  return temporal.workflow.execute(erasePersonWorkflow, {
    workflowId: erasureWorkflowId(subjectHash),
    taskQueue: config.temporal.taskQueue,
    args: [{ subjectHash, kind: subject.kind }],
    // A second `erase` of the same person while one runs waits for that one.
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

interface EraseOptions {
  number?: string;
  email?: string;
  status?: boolean;
  verify?: string | boolean;
}

/** Registers `erase` on the CLI program. */
export function registerEraseCommand(program: Command): void {
  program
    .command('erase')
    .description(
      'Erase one person everywhere (warehouse, BigQuery, archived audio, report files, Temporal histories, optionally CRM records) and keep them suppressed',
    )
    .option(
      '--number <number>',
      'their phone number, in any form (+44…, 0044…, national in crm.defaultCountry)',
    )
    .option('--email <email>', 'their e-mail address')
    .option('--status', 'list recent erasures (what, when, counts) instead')
    .option(
      '--verify [number]',
      'erase nothing: list what is left of the person (PostgreSQL and BigQuery tables, Temporal histories, report files); exits 1 when anything is',
    )
    .action(async (opts: EraseOptions, cmd: Command) => {
      requireRunningStack(globalOptions(cmd), 'erase');
      const config = loadCliConfig(globalOptions(cmd));
      const raw = typeof opts.verify === 'string' ? { ...opts, number: opts.verify } : opts;
      const subject = raw.status
        ? undefined
        : parseSubject(
            {
              ...(raw.number !== undefined ? { number: raw.number } : {}),
              ...(raw.email !== undefined ? { email: raw.email } : {}),
            },
            config.crm.defaultCountry as CountryCode,
          );
      const logger = cliLogger(config, 'erase');
      const database = await resolveDatabase(config, logger);
      const ssl = postgresSsl(config.database.sslmode, config.database.sslCa);
      const warehouse = createDatabase(database.url, ssl !== undefined ? { ssl } : {});
      let temporal: Awaited<ReturnType<typeof connectTemporal>> | undefined;
      try {
        await migrateToLatest(warehouse.db);
        if (raw.status) {
          const text = formatErasures(await recentErasures(warehouse.db));
          process.stdout.write(`${text || 'no erasures'}\n`);
          return;
        }
        temporal = await connectTemporal(config);
        if (raw.verify !== undefined) {
          const found = await verifyErasure(config, warehouse, temporal.client, subject!);
          process.stdout.write(`${formatVerification(found)}\n`);
          if (found.left.length > 0) process.exitCode = 1;
          return;
        }
        const result = await runErasure(config, warehouse, temporal.client, raw);
        process.stdout.write(`${JSON.stringify(result)}\n`);
      } finally {
        await temporal?.close();
        await warehouse.close();
        await database.stop();
      }
    });
}
