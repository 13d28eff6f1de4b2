// The emulator clock as the call simulator drives it: while the simulator runs with advance_clock
// the clock moves `speed` times real time (ticked every 250 ms and when a call is placed), and the
// steps of calls move it forward to their times, never back.
import type { EmulatorStore } from '../store';
import type { SimulatorConfig } from './simulator-config';

export class SimulatorClock {
  private timer: NodeJS.Timeout | undefined;
  private anchor = { real: 0, sim: 0 };

  constructor(
    private readonly store: () => EmulatorStore,
    private readonly config: () => SimulatorConfig,
    private readonly running: () => boolean,
  ) {}

  /** Moves the clock every 250 ms until stopTicking(). */
  startTicking(): void {
    this.timer = setInterval(() => this.tick(), 250);
    this.timer.unref();
  }

  stopTicking(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The start of a call placed now: the emulator clock (epoch seconds). */
  startSecond(store: EmulatorStore): number {
    if (this.running() && this.config().advance_clock) this.tick();
    return Math.floor(store.clock.now().getTime() / 1000);
  }

  /** Real time and emulator time from now on (after a start or a change of speed). */
  anchorNow(): void {
    this.anchor = { real: Date.now(), sim: this.store().clock.now().getTime() };
  }

  /** While running with advance_clock, the emulator clock moves `speed` times real time. */
  tick(): void {
    const clock = this.store().clock;
    const target = this.anchor.sim + (Date.now() - this.anchor.real) * this.config().speed;
    if (target > clock.now().getTime()) clock.set(new Date(target));
  }

  /** Never moves the clock back. */
  advanceTo(store: EmulatorStore, epochSecond: number): void {
    if (!this.config().advance_clock) return;
    const ms = epochSecond * 1000;
    if (ms > store.clock.now().getTime()) store.clock.set(new Date(ms));
  }
}
