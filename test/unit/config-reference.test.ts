// docs/configuration.md is generated from the schema's source (`npm run docs:config`); it must be
// what the schema says today, every key of it.
import { readFileSync } from 'node:fs';
import { configSchema } from '../../config/schema';
import { configReference, REFERENCE_FILE } from '../../scripts/config-reference';

describe('the configuration reference', () => {
  const generated = configReference();

  it('is the committed docs/configuration.md (run `npm run docs:config` after changing the schema)', () => {
    expect(readFileSync(REFERENCE_FILE, 'utf8')).toBe(generated);
  });

  it('lists every top-level key of the schema, with the doc comment of a documented one', () => {
    for (const key of Object.keys(configSchema.shape)) expect(generated).toContain(`| \`${key}\` |`);
    expect(generated).toMatch(
      /\| `sync\.historyInterval` \| .* \| `5 \* 60000` \| Polling interval of history streams/,
    );
    expect(generated).toContain('| `accounts[].crm (type = "hubspot").oauth.clientSecret` | secret');
  });
});
