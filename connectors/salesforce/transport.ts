// How the Salesforce connector's parts (contact book, outcome source, custom-field setup) send
// requests: the connector's jsforce connection, each request through the connector's rate gate.
import type { Connection } from 'jsforce';

export interface SalesforceTransport {
  connection: Connection;
  call<T>(send: () => Promise<T>): Promise<T>;
}
