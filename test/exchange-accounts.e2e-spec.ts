import { randomBytes } from 'node:crypto';
import { type RunningSimulator, startSimulator } from '../apps/exchange-sim/src/index.js';
import { apiCaller, simWeight } from './support/exchange-api.js';
import { gatewaySuite } from './support/gateway-suite.js';

const ADMIN = 'admin-token-for-exchange-account-tests';
const DEFAULT_KEY = 'agent-key-of-the-default-account';
const TEAM_B = { apiKey: 'team-b-api-key', secret: 'team-b-secret-value-0123456789', passphrase: 'team-b-passphrase-value' };
const TEAM_B_UID = '8000000077';

describe('each agent queries and cancels on its own account', () => {
  const suite = gatewaySuite({ AGENT_API_KEY: DEFAULT_KEY, ADMIN_TOKEN: ADMIN, SECRETS_KEY: randomBytes(32).toString('hex') }, { worker: false });
  // Team B trades on an exchange (simulator) of its own, with data generated from its own UID.
  let teamBExchange: RunningSimulator;
  beforeAll(async () => {
    teamBExchange = await startSimulator({ port: 0, accounts: [{ uid: TEAM_B_UID, ...TEAM_B, aiLogAllowlisted: true }] });
  });
  afterAll(() => teamBExchange?.close());

  const admin = async (path: string, body: object) => {
    const res = await apiCaller(suite, ADMIN).post(path, body);
    if (res.status !== 201) throw new Error(`${path}: HTTP ${res.status} ${res.text}`);
    return res.body;
  };
  const teamBData = () => teamBExchange.state.account(TEAM_B_UID)!.data;

  it("reads and cancels the agent's own account, never the default one", async () => {
    await admin('/admin/accounts', { id: 'team-b', name: 'Team B', ...TEAM_B, baseUrl: teamBExchange.url, spotBaseUrl: teamBExchange.spotUrl });
    const { key } = await admin('/admin/agents', { accountId: 'team-b', label: 'bot', scopes: ['exchange:read', 'exchange:cancel'] });
    const teamB = apiCaller(suite, key);
    const defaults = (await apiCaller(suite, DEFAULT_KEY).get('/v1/orders/open')).body.data.map((o: { orderId: string }) => o.orderId);
    const defaultExchange = simWeight(suite);

    const open = (await teamB.get('/v1/orders/open')).body.data.map((o: { orderId: string }) => o.orderId).sort();
    const held = teamBData()
      .orders.filter((o) => ['NEW', 'PARTIALLY_FILLED'].includes(o.status))
      .map((o) => String(o.orderId))
      .sort();
    expect(open).toEqual(held);
    expect(defaults).not.toEqual(expect.arrayContaining([open[0]]));

    const order = teamBData().orders.find((o) => String(o.orderId) === open[0])!;
    const res = await teamB.post('/v1/orders/cancel-batch', { symbol: order.symbol, ids: [open[0]] });
    expect(res.body).toMatchObject({ result: true, orderIds: [open[0]] });
    expect(order.status).toBe('CANCELED');
    // Neither team B's read nor its cancel reached the default account's exchange.
    expect(simWeight(suite)).toEqual(defaultExchange);
  });

  it('answers 409 for an account the gateway holds no exchange credentials for', async () => {
    await suite.db.query("INSERT INTO accounts (id, name) VALUES ('no-credentials', 'No credentials')");
    const { key } = await admin('/admin/agents', { accountId: 'no-credentials', label: 'bot', scopes: ['exchange:read'] });
    const res = await apiCaller(suite, key).get('/v1/positions');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      statusCode: 409,
      code: 'NO_EXCHANGE_CREDENTIALS',
      message: expect.stringContaining('no exchange credentials for this account'),
    });
  });
});
