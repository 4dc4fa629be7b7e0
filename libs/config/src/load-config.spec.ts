import { ConfigError } from './config.error.js';
import { REAL_WEEX_BASE_URL, SANDBOX_CREDENTIALS } from './gateway-config.js';
import { loadConfig } from './load-config.js';

describe('loadConfig', () => {
  it('starts with nothing set: sandbox mode, embedded database, BullMQ on PostgreSQL, simulator on SIM_PORT', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      dataDir: './.data',
      sandbox: true,
      embeddedDatabase: true,
      queueBackend: 'postgres',
      apiStatementTimeoutMs: 30_000,
    });
    expect(config.weex).toEqual({
      baseUrl: 'http://127.0.0.1:3100',
      spotBaseUrl: 'http://127.0.0.1:3101',
      credentials: SANDBOX_CREDENTIALS,
    });
  });

  it('goes live with all three WEEX credentials, against the real exchange by default', () => {
    const config = loadConfig({ WEEX_API_KEY: 'k', WEEX_API_SECRET: 's', WEEX_API_PASSPHRASE: 'p', REDIS_URL: 'redis://r:6379' });
    expect(config.sandbox).toBe(false);
    expect(config.queueBackend).toBe('redis');
    expect(config.weex.baseUrl).toBe(REAL_WEEX_BASE_URL);
  });

  it('never sends sandbox traffic to the real exchange: SIM_URL moves the simulator, not WEEX', () => {
    expect(loadConfig({ SIM_URL: 'http://exchange-sim:3100' }).weex.baseUrl).toBe('http://exchange-sim:3100');
  });

  it('lists every bad variable at once, by its environment name', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', WEEX_UPLOAD_API_VERSION: 'v4', WEEX_API_KEY: 'only-the-key', API_STATEMENT_TIMEOUT_MS: '50' });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = error!.problems.map((p) => p.split(':')[0]);
    expect(names).toEqual(
      expect.arrayContaining([
        'PORT',
        'DATABASE_URL',
        'WEEX_UPLOAD_API_VERSION',
        'WEEX_API_KEY, WEEX_API_SECRET, WEEX_API_PASSPHRASE',
        'API_STATEMENT_TIMEOUT_MS',
      ]),
    );
  });

  it('has no failpoints unless GATEWAY_FAILPOINTS names known ones (test-only)', () => {
    expect(loadConfig({}).failpoints.size).toBe(0);
    expect([...loadConfig({ GATEWAY_FAILPOINTS: 'before-commit,after-commit' }).failpoints]).toEqual(['before-commit', 'after-commit']);
    expect(() => loadConfig({ GATEWAY_FAILPOINTS: 'after-commit,nowhere' })).toThrow(
      /GATEWAY_FAILPOINTS: value must be a comma-separated list of before-commit, after-commit/,
    );
  });
});
