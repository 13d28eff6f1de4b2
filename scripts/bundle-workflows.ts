// `npm run build`'s last step: the workflows bundled into one file (default dist/workflow-bundle.js),
// which a worker loads instead of bundling at start when CALLSYNC_WORKFLOW_BUNDLE names it.
import { writeWorkflowBundle } from '../runtime/worker';

const out = process.argv[2] ?? 'dist/workflow-bundle.js';
writeWorkflowBundle(out).then(
  () => process.stdout.write(`workflow bundle written to ${out}\n`),
  (err: unknown) => {
    process.stderr.write(`bundle-workflows: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
