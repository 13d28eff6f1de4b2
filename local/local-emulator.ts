// The platform emulator in the local stack, when the config names no account: the account that
// stands for it, callsync's receiver registered as its webhook, and live call traffic (the call
// simulator, or plain CDRs on a timer when the simulator cannot start).
import type { CallsyncConfigInput } from '../config/schema';
import type { RunningEmulator } from '../emulator';
import type { Logger } from '../lib/logger';
import type { Shutdown } from '../lib/shutdown';

/** Name of the account that stands for the emulator. */
export const EMULATOR_ACCOUNT = 'local';

/** The emulator as the config's one account, whose webhooks carry `webhookSecret`. */
export function emulatorAccounts(
  emulator: RunningEmulator,
  webhookSecret: string,
): NonNullable<CallsyncConfigInput['accounts']> {
  return [
    {
      name: EMULATOR_ACCOUNT,
      platform: {
        baseUrl: emulator.baseUrl,
        credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
      },
      webhookSecret,
    },
  ];
}

export /**
 * Registers callsync's receiver as the emulator's webhook (every call state change and received
 * SMS). The emulator sends a test event first. A failure is logged, not fatal: the sync runs on.
 */
async function registerEmulatorWebhook(emulator: RunningEmulator, url: string, log: Logger): Promise<void> {
  try {
    const res = await fetch(`${emulator.origin}/_emulator/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'callsync', categories: ['call_state_change', 'sms_received'], url }),
    });
    if (!res.ok) {
      const why = (await res.text()).slice(0, 300).replaceAll(new URL(url).pathname, '/webhooks/…');
      throw new Error(`HTTP ${res.status}: ${why}`);
    }
    log.info('emulator webhook registered to the local receiver');
  } catch (err) {
    log.warn(
      { err },
      'could not register the emulator webhook; webhooks will not arrive (polling still syncs)',
    );
  }
}

/** Starts the emulator's call simulator at a gentle rate; false (logged) when it cannot. */
async function startSimulator(emulator: RunningEmulator, log: Logger): Promise<boolean> {
  try {
    const res = await fetch(`${emulator.origin}/_emulator/simulator/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rate_per_minute: 6, speed: 4, transcript_delay_s: 240, advance_clock: true }),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
    log.info('call simulator started (6 calls a minute)');
    return true;
  } catch (err) {
    log.warn({ err }, 'could not start the call simulator; adding plain CDRs instead');
    return false;
  }
}

/** Starts live call traffic in the emulator, every `tickMs` without the simulator; `stops` ends it. */
export async function startEmulatorTraffic(
  em: RunningEmulator,
  stops: Shutdown,
  log: Logger,
  tickMs: number,
): Promise<void> {
  // Live call traffic: the simulator places calls (with their webhooks, live calls, CDRs and
  // late transcripts) and moves the emulator's clock along. Without it, plain CDRs keep arriving.
  if (await startSimulator(em, log)) {
    stops.add('the call simulator', async () => {
      await fetch(`${em.origin}/_emulator/simulator/stop`, { method: 'POST' }).catch(() => undefined);
    });
  } else {
    const timer = setInterval(() => {
      em.store.clock.advance(tickMs);
      em.store.addCdrs(em.admin.customer_id, 1 + Math.floor(Math.random() * 3));
    }, tickMs);
    stops.add('the CDR timer', () => clearInterval(timer));
  }
}
