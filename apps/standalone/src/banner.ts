import { join } from 'node:path';
import type { GatewayConfig } from '#libs/config';
import type { RunningGateway } from './start-gateway.js';

/**
 * The banner's facts as one log line, for when stdout is not a terminal: the sandbox's key and admin token are not
 * printed (logs hide them), only the files under DATA_DIR that hold them.
 */
export function startedLine(config: GatewayConfig, gateway: RunningGateway): { message: string; fields: Record<string, string> } {
  const mode = config.sandbox ? `sandbox mode: uploads go to the local simulator at ${config.weex.baseUrl}` : `live mode: uploads go to ${config.weex.baseUrl}`;
  const files = config.sandbox
    ? {
        agentKeyFile: join(config.dataDir, 'sandbox-agent-key'),
        ...(gateway.api.access.sandboxAdminToken ? { adminTokenFile: join(config.dataDir, 'sandbox-admin-token') } : {}),
      }
    : {};
  const witness: Record<string, string> = gateway.witness ? { witnessUrl: gateway.witness.url, witnessKey: gateway.witness.verifierKey } : {};
  const fields = { url: gateway.api.url, exchangeUrl: config.weex.baseUrl, exchangeSpotUrl: config.weex.spotBaseUrl, ...files, ...witness };
  return { message: `AI-log gateway listening on ${gateway.api.url} (${mode})`, fields };
}

/** What a person needs after `npm start`: where it runs, in which mode, a key, and a command that posts a log. */
export function banner(config: GatewayConfig, gateway: RunningGateway): string {
  const key = gateway.api.access.sandboxKey ?? (config.agentApiKey ? '<your AGENT_API_KEY>' : '<create an agent key>');
  const mode = config.sandbox
    ? `SANDBOX mode: no WEEX credentials are set, so uploads go to the local simulator at ${config.weex.baseUrl}`
    : `LIVE mode: uploads go to ${config.weex.baseUrl}`;
  // Written as text: a JS number would round the 64-bit order id.
  const body =
    '{"orderId":737185556881998184,"stage":"decision","model":"my-model-v1","input":{"prompt":"BTCUSDT 1h candles ..."},' +
    '"output":{"action":"BUY","size":"0.01"},"explanation":"Momentum and funding both favour a long."}';
  return [
    '',
    `AI-log gateway listening on ${gateway.api.url}`,
    mode,
    ...(config.sandbox
      ? [`Simulator for your own agent (ccxt: README, "Rehearse with your own agent"): contracts ${config.weex.baseUrl}, spot ${config.weex.spotBaseUrl}`]
      : []),
    ...(gateway.witness ? [`Local witness cosigning the checkpoints: ${gateway.witness.url}, key ${gateway.witness.verifierKey}`] : []),
    `Database: ${config.embeddedDatabase ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL at DATABASE_URL'}; queue: ${config.redisUrl ? 'Redis' : 'BullMQ on PostgreSQL'}`,
    `Agent key for the ${config.sandbox ? 'sandbox' : 'default'} account: ${key}`,
    ...(gateway.api.access.sandboxAdminToken
      ? [`Admin token (admin endpoints, queue dashboard at ${gateway.api.url}/admin/queues): ${gateway.api.access.sandboxAdminToken}`]
      : []),
    '',
    'Post a log:',
    `  curl -s -X POST ${gateway.api.url}/v1/ai-logs \\`,
    `    -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\`,
    `    -d '${body}'`,
    'Then see its upload:',
    `  curl -s ${gateway.api.url}/v1/ai-logs/<id> -H 'Authorization: Bearer ${key}'`,
    '',
  ].join('\n');
}
