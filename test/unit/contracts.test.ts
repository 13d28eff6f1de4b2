// Callers reach workflows only through contracts/: these tests hold the contracts and the workflow
// code the worker registers to the same names and signatures.
import { extractWorkflowType } from '@temporalio/common';
import {
  backfillWindowWorkflowId,
  backfillWorkflowId,
  callbackWorkflowId,
  legacyCallbackWorkflowId,
  callWorkflowId,
  workflowContracts,
  workflowRef,
} from '../../contracts';
import * as workflows from '../../workflows';

// Compile-time: every contract has an implementation of its signature under its name.
const implementations: typeof workflowContracts = workflows;

describe('workflow contracts', () => {
  it('name exactly the workflows the worker registers', () => {
    const registered = Object.keys(workflows).sort();
    expect(Object.keys(workflowContracts).sort()).toEqual(registered);
    for (const [name, ref] of Object.entries(workflowContracts)) {
      // The Temporal client takes the workflow type from the reference's function name.
      expect(extractWorkflowType(ref)).toBe(name);
      expect(implementations[name as keyof typeof workflowContracts].name).toBe(name);
    }
  });

  it('are references, not code: calling one says how to start it', () => {
    const ref = workflowRef<(input: { id: number }) => Promise<void>>('someWorkflow');
    expect(ref.name).toBe('someWorkflow');
    expect(() => ref({ id: 1 })).toThrow('someWorkflow is a workflow: start it through a Temporal client');
  });
});

describe('workflow ids', () => {
  it('key a call by account and call id, a callback by account and the hash of the number', () => {
    expect(callWorkflowId('acme', 7000001)).toBe('call-acme-7000001');
    expect(callbackWorkflowId('acme', '0123abcd')).toBe('callback-acme-0123abcd');
    expect(legacyCallbackWorkflowId('acme', '+442079460555')).toBe('callback-acme-+442079460555');
  });

  it('key a backfill by its range, so a second start of the same range joins the first', () => {
    expect(backfillWorkflowId('acme', 'cdrs', '2026-05-01', undefined)).toBe(
      'backfill-acme-cdrs-2026-05-01-now',
    );
    expect(backfillWorkflowId('acme', 'cdrs', '2026-05-01 08:30:00', '2026-06-01')).toBe(
      'backfill-acme-cdrs-2026-05-01-08-30-00-2026-06-01',
    );
    expect(backfillWindowWorkflowId('backfill-acme-cdrs-2026-05-01-now', '2026-05-01 00:00:00')).toBe(
      'backfill-acme-cdrs-2026-05-01-now/2026-05-01 00:00:00',
    );
  });
});
