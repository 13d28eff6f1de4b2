// Phone numbers in free text (error messages, stack traces, failure rows) are masked before the text
// is logged or stored: a CRM's "no contact with phone +44 20 7946 0958" must not reach a log line.
// Only the last two digits are kept, enough to tell two failures apart. The match is deliberately
// wide (any run of 7 to 15 digits, with the usual punctuation): a numeric id masked by mistake costs
// less than a number left in clear. Dates, times and IP addresses are left alone.

// A + (or its URL form %2B) or 00, then digits with spaces, dots, dashes and parentheses between them.
const NUMBER_IN_TEXT = /(?<![\w+.:-])(?:\+|%2B|00)?\(?\d[\d\s().-]{5,22}\d(?![\w]|[.:-]\d)/g;
const DATE = /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/;
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** `text` with every phone-number-like run of 7 to 15 digits masked down to its last two digits. */
export function maskPhoneNumbers(text: string): string {
  return text.replace(NUMBER_IN_TEXT, (candidate) => {
    const trimmed = candidate.trim();
    const digits = trimmed.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) return candidate;
    if (DATE.test(trimmed) || DOTTED_QUAD.test(trimmed)) return candidate;
    const lead = candidate.slice(0, candidate.length - candidate.trimStart().length);
    const trail = candidate.slice(candidate.trimEnd().length);
    return `${lead}[number …${digits.slice(-2)}]${trail}`;
  });
}
