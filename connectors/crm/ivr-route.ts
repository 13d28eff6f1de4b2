// Where the keys a caller pressed in the IVR led: read from the call's timeline, where each key press
// is followed by the event of whoever the call went to next (a queue, a user, a voicemail). Pure.

/** One event of a call's timeline, as far as the route needs it (detail: the stored signal). */
export interface TimelineStep {
  name: string;
  detail: unknown;
}

/** One IVR choice: the keys of one key-press event, and where the call went next (null: unknown). */
export interface IvrChoice {
  keys: string;
  ledTo: string | null;
}

interface StepDetail {
  digits?: unknown;
  dst?: unknown;
  dstName?: unknown;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** "Name (number)", the name or the number of the party an event is for; null when it names none. */
function party(d: StepDetail): string | null {
  const name = text(d.dstName);
  const number = text(d.dst);
  if (name && number && name !== number) return `${name} (${number})`;
  return name ?? number;
}

/** The IVR choices of a timeline in its order: each key press and the next party the call reached. */
export function ivrChoices(timeline: readonly TimelineStep[]): IvrChoice[] {
  const details = timeline.map(
    (s) => (typeof s.detail === 'object' && s.detail !== null ? s.detail : {}) as StepDetail,
  );
  const choices: IvrChoice[] = [];
  details.forEach((d, i) => {
    const keys = text(d.digits);
    if (!keys) return;
    const menu = party(d);
    let ledTo: string | null = null;
    for (const next of details.slice(i + 1)) {
      if (text(next.digits)) break; // the next choice: this one led to another menu
      const reached = party(next);
      if (reached && reached !== menu) {
        ledTo = reached;
        break;
      }
    }
    choices.push({ keys, ledTo });
  });
  return choices;
}

/** The route line of a call log ("2 → Sales (600); 1 → Amelia (101)"), or null when no choice led anywhere known. */
export function ivrRouteText(choices: readonly IvrChoice[]): string | null {
  if (!choices.some((c) => c.ledTo)) return null;
  return choices.map((c) => `${[...c.keys].join(' ')} → ${c.ledTo ?? 'unknown'}`).join('; ');
}
