// The suppression list as the inbox writer reads it: the anonymiser for the suppressions read so far,
// rebuilt only when new ones arrive. The writer's insert checks in the same statement that no newer
// suppression exists (connectors/postgres webhook-inbox.ts), so nothing is read before each commit.
import type { CountryCode } from 'libphonenumber-js/max';
import type { SuppressionList } from '../connectors/postgres';
import { createSuppressor, type Suppressor } from '../lib/erasure/suppress';
import type { SuppressionSource } from './inbox-writer';

export function cachedSuppression(
  list: SuppressionList,
  erasure: { key: Buffer | undefined; defaultCountry: string },
): SuppressionSource {
  let known: { suppressor: Suppressor | null; newestId: string } = { suppressor: null, newestId: '0' };
  return {
    known: () => known,
    async refresh() {
      const hashes = await list.current();
      if (list.newestId === known.newestId) return;
      known = {
        suppressor: createSuppressor(erasure.key, hashes, erasure.defaultCountry as CountryCode),
        newestId: list.newestId,
      };
    },
  };
}
