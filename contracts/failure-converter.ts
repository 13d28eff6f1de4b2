// The failure converter of every Temporal client and worker callsync creates (and of the workflow
// bundle): failure messages and stack traces travel as an encoded payload, so the payload codec
// encrypts them like any argument. A CRM's "no contact with phone +44…" is otherwise stored in clear
// in the history of every workflow it fails. Loaded by path (`failureConverterPath`), because the
// workflow sandbox takes its converters from the bundle.
import { DefaultFailureConverter } from '@temporalio/common';

/** The converter the SDK loads from this module (the export's name is the SDK's convention). */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
