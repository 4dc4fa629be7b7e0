import { existsSync } from 'node:fs';
import { plainToInstance } from 'class-transformer';
import { AppConfig } from './app-config.js';
import { validateSync } from 'class-validator';
import { ConfigError } from './config.error.js';
import { convert, ENV_VARIABLES } from './env-variables.js';
import { type GatewayConfig, resolveConfig } from './gateway-config.js';

/**
 * Reads and validates the environment once. Throws a ConfigError listing every bad variable. The process's own
 * environment is completed first from `.env` in the working directory, when there is one (variables already set win).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  if (env === process.env && existsSync('.env')) process.loadEnvFile('.env');
  const plain: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(ENV_VARIABLES)) {
    const text = env[name];
    plain[variable.key] = text === undefined || text === '' ? variable.default : convert(variable.kind, text);
  }
  const config = plainToInstance(AppConfig, plain);
  const problems = validateSync(config).flatMap((error) => {
    const name = Object.entries(ENV_VARIABLES).find(([, v]) => v.key === error.property)?.[0] ?? error.property;
    // One line per variable: class-validator lists every rule a value breaks ('abc' is not an integer, nor within
    // range), last declared first; the first declared (its type) says what is wrong.
    const message = Object.values(error.constraints ?? {}).at(-1);
    return message ? [`${name}: ${message.replace(error.property, 'value')}`] : [];
  });
  const credentials = [config.weexApiKey, config.weexApiSecret, config.weexApiPassphrase].filter(Boolean).length;
  if (credentials !== 0 && credentials !== 3) {
    problems.push('WEEX_API_KEY, WEEX_API_SECRET, WEEX_API_PASSPHRASE: set all three, or none for sandbox mode');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return resolveConfig(config);
}
