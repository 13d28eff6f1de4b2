// Gathers the requests of concurrent activities in one worker into batches: an item waits at most
// `lingerMs` (or until `maxItems` are waiting), then one flush handles them all. Only one flush runs
// at a time: what arrives while it waits for the vendor's rate goes into the next one, so batches
// grow with the load instead of queueing up behind the rate limit. Items with the same key in one
// batch become one (the last submitted wins): the recording and the transcript of one call arriving
// close together are written once.

/** Per key: the result, or the error of that one item. */
export type FlushResult<Out> = Map<string, Out | Error>;

export interface CoalescerOptions {
  maxItems: number;
  lingerMs: number;
}

interface Waiting<Out> {
  resolve: (v: Out) => void;
  reject: (e: unknown) => void;
}

export class Coalescer<In, Out> {
  private pending = new Map<string, { item: In; waiting: Waiting<Out>[] }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing = false;
  /** The wait ended (or a batch filled) while a flush ran: flush again as soon as it ends. */
  private due = false;

  constructor(
    private readonly keyOf: (item: In) => string,
    private readonly flushItems: (items: In[]) => Promise<FlushResult<Out>>,
    private readonly opts: CoalescerOptions,
    /** Merges a later item into an earlier one of the same key (default: the later one wins). */
    private readonly merge: (earlier: In, later: In) => In = (_e, later) => later,
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      const key = this.keyOf(item);
      const entry = this.pending.get(key);
      if (entry) {
        entry.item = this.merge(entry.item, item);
        entry.waiting.push({ resolve, reject });
      } else {
        this.pending.set(key, { item, waiting: [{ resolve, reject }] });
      }
      if (this.pending.size >= this.opts.maxItems) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.opts.lingerMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushing) {
      this.due = true;
      return;
    }
    const entries = [...this.pending.entries()].slice(0, this.opts.maxItems);
    for (const [key] of entries) this.pending.delete(key);
    if (entries.length === 0) return;
    this.flushing = true;
    void this.flushItems(entries.map(([, e]) => e.item))
      .then(
        (results) => {
          for (const [key, e] of entries) {
            const r = results.get(key);
            for (const w of e.waiting) {
              if (r === undefined) w.reject(new Error(`batch returned nothing for ${key}`));
              else if (r instanceof Error) w.reject(r);
              else w.resolve(r);
            }
          }
        },
        (err: unknown) => {
          for (const [, e] of entries) for (const w of e.waiting) w.reject(err);
        },
      )
      .finally(() => {
        this.flushing = false;
        const due = this.due;
        this.due = false;
        if (this.pending.size === 0) return;
        if (due || this.pending.size >= this.opts.maxItems) {
          this.flush();
        } else {
          this.timer ??= setTimeout(() => this.flush(), this.opts.lingerMs);
        }
      });
  }
}
