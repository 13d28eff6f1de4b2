// Natural Language API v1 documents:analyzeSentiment (https://cloud.google.com/natural-language/docs/
// reference/rest/v1/documents/analyzeSentiment) for tests: a small word list scores each sentence
// from -1 to 1 (magnitude: the sum of absolute scores), as the real API shapes its answer.
import { GoogleApiError } from './api-error';
import type { RouteHost } from './route-host';

export interface FakeLanguage {
  /** Texts analysed so far. */
  analysed(): string[];
}

const POSITIVE = new Set([
  'great',
  'thanks',
  'thank',
  'happy',
  'perfect',
  'good',
  'excellent',
  'love',
  'please',
]);
const NEGATIVE = new Set([
  'problem',
  'angry',
  'cancel',
  'bad',
  'refund',
  'complaint',
  'broken',
  'terrible',
  'never',
]);

function score(text: string): number {
  let pos = 0;
  let neg = 0;
  for (const w of text.toLowerCase().match(/[a-z']+/g) ?? []) {
    if (POSITIVE.has(w)) pos += 1;
    if (NEGATIVE.has(w)) neg += 1;
  }
  return pos + neg === 0 ? 0 : Math.round(((pos - neg) / (pos + neg)) * 0.9 * 10) / 10;
}

/** Adds the Natural Language routes to `app`. */
export function registerLanguage(app: RouteHost): FakeLanguage {
  const texts: string[] = [];
  app.post('/v1/documents::analyzeSentiment', async (req) => {
    const body = (req.body ?? {}) as { document?: { type?: unknown; content?: unknown; language?: unknown } };
    const doc = body.document;
    if (!doc) throw new GoogleApiError(400, 'Invalid document: document is required.');
    if (doc.type !== 'PLAIN_TEXT' && doc.type !== 1 && doc.type !== 'HTML' && doc.type !== 2) {
      throw new GoogleApiError(400, 'Invalid document type.');
    }
    if (typeof doc.content !== 'string' || doc.content.trim() === '') {
      throw new GoogleApiError(400, 'The document is empty.');
    }
    texts.push(doc.content);
    const content = doc.content;
    let offset = 0;
    const sentences = (content.match(/[^.!?\n]+[.!?]?/g) ?? []).map((s) => {
      const begin = content.indexOf(s, offset);
      offset = begin + s.length;
      const value = score(s);
      return {
        text: { content: s.trim(), beginOffset: begin },
        sentiment: { magnitude: Math.abs(value), score: value },
      };
    });
    const total = sentences.reduce((n, s) => n + s.sentiment.score, 0);
    const magnitude = sentences.reduce((n, s) => n + s.sentiment.magnitude, 0);
    return {
      documentSentiment: {
        magnitude: Math.round(magnitude * 10) / 10,
        score: sentences.length ? Math.round((total / sentences.length) * 10) / 10 : 0,
      },
      language: typeof doc.language === 'string' ? doc.language : 'en',
      sentences,
    };
  });
  return { analysed: () => [...texts] };
}
