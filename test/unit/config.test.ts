import { ConfigError, loadConfig, parseConfig } from '../../config/load';

const account = {
  name: 'acme',
  platform: {
    baseUrl: 'https://pbx.example/v1.1/voipstudio',
    credentials: { type: 'apiKey' as const, userId: 7, apiKey: 'k-secret-123' },
  },
};

describe('configuration', () => {
  it('applies defaults and parses durations', () => {
    const config = parseConfig({
      allowInlineSecrets: true,
      accounts: [account],
      sync: { historyInterval: '90s', lookback: '2d' },
    });
    expect(config.sync.historyInterval).toBe(90_000);
    expect(config.sync.lookback).toBe(2 * 86_400_000);
    expect(config.sync.settingsInterval).toBe(3_600_000);
    expect(config.sync.backfillParallelism).toBe(2);
    expect(config.temporal.taskQueue).toBe('callsync');
    expect(config.accounts[0]?.platform.requestsPerSecond).toBe(20);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names each bad field and never echoes a secret', () => {
    const bad = {
      allowInlineSecrets: true,
      accounts: [{ ...account, name: 'Not OK', platform: { ...account.platform, baseUrl: 'nope' } }],
      sync: { pageSize: 9000, historyInterval: 'soon' },
    };
    let error: unknown;
    try {
      parseConfig(bad);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/accounts\[0\]\.name: lowercase/);
    expect(message).toMatch(/accounts\[0\]\.platform\.baseUrl/);
    expect(message).toMatch(/sync\.pageSize/);
    expect(message).toMatch(/sync\.historyInterval: must look like/);
    expect(message).not.toContain('k-secret-123');
  });

  it('requires an account', () => {
    expect(() => parseConfig({})).toThrow(/accounts/);
  });

  it('takes an account and services from the environment over defaults, keeping the other accounts', () => {
    const config = loadConfig({
      env: {
        PLATFORM_BASE_URL: 'https://pbx.example/v1.1/voipstudio',
        PLATFORM_EMAIL: 'ops@example.com',
        PLATFORM_PASSWORD: 'pw',
        DATABASE_URL: 'postgres://u@h/db',
        TEMPORAL_ADDRESS: 'temporal:7233',
      },
      defaults: { allowInlineSecrets: true, accounts: [account] },
    });
    expect(config.accounts.map((a) => a.name)).toEqual(['acme', 'default']);
    expect(config.accounts[0]?.platform.credentials).toEqual(account.platform.credentials);
    expect(config.accounts[1]?.platform.credentials).toEqual({
      type: 'password',
      email: 'ops@example.com',
      password: 'pw',
    });
    expect(config.database.url).toBe('postgres://u@h/db');
    expect(config.temporal.address).toBe('temporal:7233');
  });

  it('takes the dashboard password from CALLSYNC_DASHBOARD_PASSWORD, keeping the other dashboard settings', () => {
    const server = { host: '0.0.0.0', dashboard: { sessionHours: 2 } };
    const config = loadConfig({
      env: { CALLSYNC_DASHBOARD_PASSWORD: 'a-long-password-1' },
      defaults: { allowInlineSecrets: true, accounts: [account], server },
    });
    expect(config.server.dashboard).toMatchObject({ password: 'a-long-password-1', sessionHours: 2 });
    // The schema's rule still holds for a password that comes this way.
    expect(() =>
      loadConfig({
        env: { CALLSYNC_DASHBOARD_PASSWORD: 'short' },
        defaults: { allowInlineSecrets: true, accounts: [account] },
      }),
    ).toThrow(/at least 12/);
  });
});
