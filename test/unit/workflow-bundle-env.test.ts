// A worker loads the workflow bundle the build wrote when CALLSYNC_WORKFLOW_BUNDLE names it, and
// refuses a name that points nowhere rather than bundling quietly or failing later.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prebuiltWorkflowBundle, WORKFLOW_BUNDLE_ENV } from '../../runtime/worker';

describe('prebuiltWorkflowBundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callsync-bundle-env-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the file the variable names, or nothing when it is unset or empty', () => {
    const file = join(dir, 'workflow-bundle.js');
    writeFileSync(file, '// bundle');
    expect(prebuiltWorkflowBundle({ [WORKFLOW_BUNDLE_ENV]: file })).toBe(file);
    expect(prebuiltWorkflowBundle({})).toBeUndefined();
    expect(prebuiltWorkflowBundle({ [WORKFLOW_BUNDLE_ENV]: '' })).toBeUndefined();
  });

  it('refuses a path with no file, naming the variable and the path', () => {
    const missing = join(dir, 'nowhere.js');
    expect(() => prebuiltWorkflowBundle({ [WORKFLOW_BUNDLE_ENV]: missing })).toThrow(
      `CALLSYNC_WORKFLOW_BUNDLE: no workflow bundle at ${missing}`,
    );
  });
});
