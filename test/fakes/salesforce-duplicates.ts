// The Salesforce test server's duplicate rules: the standard duplicate rules of a new org, refusing a
// Contact or Lead create that matches an existing record, and an edit of Phone or Email that makes the
// record match another, with DUPLICATES_DETECTED unless the request sends Sforce-Duplicate-Rule-Header
// allowSave=true (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api/headers_duplicaterules.htm;
// the other pages are cited below). Used by the sObject endpoints (salesforce-records.ts,
// salesforce-sobjects.ts).
import { SalesforceError, digits } from './salesforce-errors';
import type { DuplicateRules, FakeRecord, SalesforceState, SObjectType } from './salesforce-state';

/** The duplicate rules' checks, over the server's records. */
export function duplicateChecks(s: SalesforceState): DuplicateRules {
  const { store, duplicateRules, attributes } = s;

  /**
   * The standard duplicate rules of a new org, active by default, action on create "Allow" with an
   * alert (https://help.salesforce.com/apex/HTViewHelpDoc?id=sales.duplicate_rules_standard_account_rule.htm
   * for the rules' shape): through the API the alert cannot be acknowledged, so the create is refused
   * with DUPLICATES_DETECTED unless the request sends `Sforce-Duplicate-Rule-Header: allowSave=true`
   * (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api/headers_duplicaterules.htm;
   * default false). The error carries a DuplicateResult (duplicateRule, matchResults[].matchRecords[]
   * .record with attributes and Id;
   * https://developer.salesforce.com/docs/platform/api/guide/sforce-api-objects-duplicateerror.html,
   * https://developer.salesforce.com/docs/platform/api/guide/sforce-api-objects-matchresult.html).
   * Modelled matching: the same Phone (its digits) or the same Email (any case). A new Contact is
   * compared with Contacts (Standard Contact Duplicate Rule); a new Lead with unconverted Leads and
   * with Contacts (Standard Lead Duplicate Rule, Standard Rule for Leads with Duplicate Contacts).
   * The code "must set allowSave" to complete such an insert
   * (https://developer.salesforce.com/docs/platform/api-metadata/references/meta-types/metadata-duplicaterule.html,
   * actionOnInsert). Records of one collections request are checked against those saved before it,
   * not against each other.
   */
  function checkDuplicates(
    type: SObjectType,
    fields: Record<string, unknown>,
    allowSave: boolean,
    existing: readonly FakeRecord[] = [...store.values()],
  ) {
    if (!duplicateRules || allowSave || (type !== 'Contact' && type !== 'Lead')) return;
    const phone = digits(fields.Phone);
    const email = typeof fields.Email === 'string' ? fields.Email.trim().toLowerCase() : '';
    if (phone === '' && email === '') return;
    const matches = (r: FakeRecord) =>
      (phone !== '' && digits(r.fields.Phone) === phone) ||
      (email !== '' && typeof r.fields.Email === 'string' && r.fields.Email.trim().toLowerCase() === email);
    const against: SObjectType[] = type === 'Contact' ? ['Contact'] : ['Lead', 'Contact'];
    const matchResults = against
      .map((entityType) => ({
        entityType,
        hits: existing.filter(
          (r) =>
            r.type === entityType &&
            !r.IsDeleted &&
            !(r.type === 'Lead' && r.fields.IsConverted === true) &&
            matches(r),
        ),
      }))
      .filter((m) => m.hits.length > 0)
      .map(({ entityType, hits }) => ({
        entityType,
        errors: [],
        matchEngine: 'FuzzyMatchEngine',
        matchRecords: hits.map((r) => ({
          additionalInformation: [],
          fieldDiffs: [],
          matchConfidence: 100.0,
          record: { attributes: attributes(r), Id: r.Id },
        })),
        rule: `Standard_${entityType}_Match_Rule_v1_1`,
        size: hits.length,
        success: true,
      }));
    if (matchResults.length === 0) return;
    const message = "You're creating a duplicate record. We recommend you use an existing record instead.";
    throw new SalesforceError(400, 'DUPLICATES_DETECTED', message, [], {
      duplicateResult: {
        allowSave: true,
        duplicateRule:
          type === 'Contact' ? 'Standard_Contact_Duplicate_Rule' : 'Standard_Lead_Duplicate_Rule',
        duplicateRuleEntityType: type,
        errorMessage: message,
        matchResults,
      },
    });
  }

  /**
   * The same standard rules on edit: their action on update is also "Allow" with an alert
   * (actionOnUpdate, https://developer.salesforce.com/docs/platform/api-metadata/references/meta-types/metadata-duplicaterule.html),
   * so through the API an edit whose record then matches ANOTHER record is refused with
   * DUPLICATES_DETECTED unless the request sends allowSave=true. A rule runs on edit only when the
   * edit changes a field of its matching rule ("duplicate rules are only triggered when a change is
   * detected in the fields defined in the Matching Criteria",
   * https://help.salesforce.com/s/articleView?id=005237351&type=1): here Phone (its digits) or
   * Email (any case), so an edit of other fields of a record that already has a duplicate is saved.
   */
  function checkDuplicatesOnEdit(record: FakeRecord, fields: Record<string, unknown>, allowSave: boolean) {
    const email = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
    const changed =
      ('Phone' in fields && digits(fields.Phone) !== digits(record.fields.Phone)) ||
      ('Email' in fields && email(fields.Email) !== email(record.fields.Email));
    if (!changed) return;
    const others = [...store.values()].filter((r) => r.Id !== record.Id);
    checkDuplicates(record.type, { ...record.fields, ...fields }, allowSave, others);
  }

  return { checkDuplicates, checkDuplicatesOnEdit };
}
