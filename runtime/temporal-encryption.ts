// Turns `temporal.encryption` into the data converter every Temporal client and worker callsync
// creates uses: the failure converter and the payload codec of lib/encryption-keys.ts.
import { readFileSync } from 'node:fs';
import type { DataConverter } from '@temporalio/common';
import type { TemporalConfig } from '../config/temporal';
import { payloadCodecFromConfig } from '../lib/encryption-keys';

/**
 * Path of the failure converter (contracts/failure-converter.ts) that encodes failure messages and
 * stack traces; workflow bundles are built with it (`bundleWorkflowCode({ failureConverterPath })`).
 */
export const FAILURE_CONVERTER_PATH = require.resolve('../contracts/failure-converter');

/**
 * The data converter for Client and Worker: failure messages and stacks encoded as payloads, and
 * the payload codec (when encrypting) that encrypts them with everything else.
 */
export function temporalDataConverter(
  temporal: Pick<TemporalConfig, 'encryption'>,
  read = readFileSync,
): DataConverter {
  const codec = payloadCodecFromConfig(temporal, read);
  return {
    failureConverterPath: FAILURE_CONVERTER_PATH,
    ...(codec ? { payloadCodecs: [codec] } : {}),
  };
}
