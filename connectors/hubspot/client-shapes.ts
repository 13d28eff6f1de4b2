// The generated client types its enums as TypeScript enums; the pure mappers (properties.ts) use
// their string values, cast here into the client's request shapes.
import type {
  AssociationSpecAssociationCategoryEnum,
  FilterOperatorEnum,
} from '@hubspot/api-client/lib/codegen/crm/objects/calls';
import type { contactAssociations, phoneFilterGroups } from './properties';

export function toClientFilters(groups: ReturnType<typeof phoneFilterGroups>) {
  return groups.map((g) => ({
    filters: g.filters.map((f) => ({ ...f, operator: f.operator as FilterOperatorEnum })),
  }));
}

export function toClientAssociations(list: ReturnType<typeof contactAssociations>) {
  return list.map((a) => ({
    to: a.to,
    types: a.types.map((t) => ({
      associationTypeId: t.associationTypeId,
      associationCategory: t.associationCategory as AssociationSpecAssociationCategoryEnum,
    })),
  }));
}
