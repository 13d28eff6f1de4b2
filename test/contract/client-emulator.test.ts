// Contract test: every spec endpoint, called through its client method, against the emulator.
// Each step asserts on the answer; the last checks prove that all 166 endpoints were exercised
// with a successful status and that the emulator serves a route for each.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlatformClient, type PlatformClient } from '../../connectors/platform';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { emulatorRouteTemplates } from '../../emulator/server/routes';
import { SPEC_ENDPOINTS } from './spec-endpoints';
import { authSteps, logoutStep } from './steps/auth';
import { callMeBackSteps } from './steps/callmeback';
import { callSteps } from './steps/calls';
import { customerSteps } from './steps/customer';
import { destructiveSteps } from './steps/destructive';
import { historySteps } from './steps/history';
import { reportSteps } from './steps/reports';
import { settingsSteps } from './steps/settings';
import { storageSteps } from './steps/storage';
import type { ContractContext, Step } from './steps/step';

const STEPS: Step[] = [
  ...authSteps,
  ...callSteps,
  ...storageSteps,
  ...customerSteps,
  ...historySteps,
  ...callMeBackSteps,
  ...settingsSteps,
  ...reportSteps,
  logoutStep,
  ...destructiveSteps,
];

describe('client against the emulator, endpoint by endpoint', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let ctx: ContractContext;
  const succeeded = new Set<string>();

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 11, cdrs: 3000, now: DEFAULT_NOW });
    // The steps hold one live call from POST to DELETE: it must not ring out and end on its own meanwhile.
    emulator.simulator.configure({ drive_api_calls: false });
    const record = (e: { method: string; template: string; status?: number | undefined }) => {
      if (e.status !== undefined && e.status >= 200 && e.status < 400)
        succeeded.add(`${e.method} ${e.template}`);
    };
    const make = (credentials: Parameters<typeof createPlatformClient>[0]['credentials']): PlatformClient =>
      createPlatformClient({
        baseUrl: emulator.baseUrl,
        credentials,
        onRequest: record,
        maxRetries: 0,
        requestsPerSecond: 1000,
      });
    ctx = {
      client: make({ type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key }),
      admin: emulator.admin,
      origin: emulator.origin,
      ids: {},
      twoFactorUser: [...emulator.store.accounts.values()].find(
        (a) => a.two_factor === 'E' && a.customer_id === emulator.admin.customer_id,
      )!,
      passwordClient: () =>
        make({ type: 'password', email: emulator.admin.email, password: emulator.admin.password }),
    };
  }, 60_000);

  afterAll(async () => {
    await ctx?.client.close();
    await emulator?.close();
  });

  it('has one step per spec endpoint', () => {
    expect(STEPS.map((s) => s.endpoint).sort()).toEqual([...SPEC_ENDPOINTS].sort());
  });

  for (const step of STEPS) {
    it(step.endpoint, async () => {
      await step.run(ctx);
      expect(succeeded.has(step.endpoint)).toBe(true);
    });
  }

  it('exercised every spec endpoint with a successful answer', () => {
    expect(SPEC_ENDPOINTS.filter((e) => !succeeded.has(e))).toEqual([]);
  });
});

describe('the emulator route table', () => {
  it('serves a route for every spec endpoint', () => {
    const served = new Set(emulatorRouteTemplates());
    expect(SPEC_ENDPOINTS.filter((e) => !served.has(e))).toEqual([]);
  });
});

describe('the endpoint list', () => {
  // The list in spec-endpoints.ts is the tests' copy of the spec. Where the spec itself is at hand
  // (shared/ beside the project, as on the developers' machines), the copy must match its tables.
  const specFile = [join(__dirname, '..', '..', '..', 'shared', 'spec', 'platform-api.md')]
    .concat(process.env.CALLSYNC_SPEC_FILE ?? [])
    .find((f) => existsSync(f));
  const tableRows = (): string[] =>
    readFileSync(specFile!, 'utf8')
      .split('\n')
      .map((line) => /^\|\s*(GET|POST|PATCH|DELETE|PUT)\s*\|\s*(\S+)\s*\|/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]} ${m[2]}`);

  it('holds 166 distinct endpoints', () => {
    expect(new Set(SPEC_ENDPOINTS).size).toBe(166);
  });

  if (specFile)
    it('matches the endpoint tables of shared/spec/platform-api.md', () => {
      expect([...SPEC_ENDPOINTS].sort()).toEqual(tableRows().sort());
    });
});
