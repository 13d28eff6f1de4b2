// The erasure workflow as the CLI sees it. Its id and arguments carry a keyed hash of the identifier,
// never the identifier: the activities read the identifier from the short-lived erasure_requests row.
import { workflowRef } from './workflow-ref';

export interface ErasePersonInput {
  /** identifierHash(key, kind, identifier) (lib/erasure/identity.ts). */
  subjectHash: string;
  kind: 'number' | 'email';
  /** Erased as linked to another identifier's erasure (which followed the links): follows none. */
  linked?: boolean;
}

/** What one erasure changed, by place (`warehouse.<table>`, `archive`, `temporal`, `crm.<kind>`). */
export interface ErasePersonResult {
  erasureId: string;
  counts: Record<string, number>;
  /**
   * Report files deleted because they could not be rewritten (PDFs naming the person): the path,
   * with identifiers and names erased, and the command that builds the file again.
   */
  removed?: { file: string; regenerate: string }[];
}

/** Workflow id of the erasure of one identifier (one at a time per identifier). */
export function erasureWorkflowId(subjectHash: string): string {
  return `erase-${subjectHash.slice(0, 32)}`;
}

/** The signature of `workflows/erase-person.ts`. */
export type ErasePersonWorkflow = (input: ErasePersonInput) => Promise<ErasePersonResult>;

export const erasePersonWorkflow = workflowRef<ErasePersonWorkflow>('erasePerson');
