// Phone numbers in E.164, the form every CRM lookup and callback key uses.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * The E.164 form of a number as the platform or a CRM writes it (`+44 20 7946 0000`,
 * `020 7946 0000` with default country GB, `0044…`), or null for extensions, `anonymous` and garbage.
 */
export function toE164(raw: string | null | undefined, defaultCountry: CountryCode): string | null {
  if (!raw) return null;
  const text = raw.trim().replace(/^00(?=[1-9])/, '+');
  // Internal extensions (3-5 digits) are not phone numbers of a contact.
  if (/^\d{2,5}$/.test(text)) return null;
  let parsed = parsePhoneNumberFromString(text, defaultCountry);
  // International digits without their `+` (how the platform writes SMS numbers: 447911123456),
  // when they are no valid national number of the default country.
  if (!parsed?.isValid() && /^[1-9]\d{7,14}$/.test(text)) parsed = parsePhoneNumberFromString(`+${text}`);
  if (!parsed?.isValid()) return null;
  return parsed.number;
}
