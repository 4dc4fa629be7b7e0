import { readFile } from 'node:fs/promises';
import { parseJson } from '#libs/common';
import type { SimAccountSeed } from '../sim-accounts.js';
import { ACCOUNT_DATA_KINDS, type AccountDataSeed } from '../state/account-data.js';

const CREDENTIAL_KEYS = ['apiKey', 'secret', 'passphrase'] as const;
const KNOWN_KEYS = new Set<string>(['uid', ...CREDENTIAL_KEYS, 'aiLogAllowlisted', ...ACCOUNT_DATA_KINDS]);

/**
 * Reads a seed file (format in apps/exchange-sim/README.md) and lays its accounts over `base`: an account whose uid
 * is in `base` keeps the credentials it has there unless the file gives others; a new uid needs all of them. Data
 * kinds the file gives replace the generated ones. Numbers are read losslessly, so 18-digit IDs keep every digit.
 */
export async function loadSeedFile(path: string, base: readonly SimAccountSeed[]): Promise<SimAccountSeed[]> {
  let file: unknown;
  try {
    file = parseJson(await readFile(path, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`simulator seed file ${path}: ${reason}`, { cause: error });
  }
  const accounts = (file as { accounts?: unknown } | null)?.accounts;
  if (!Array.isArray(accounts)) throw new Error(`simulator seed file ${path}: "accounts" must be an array`);
  const merged = new Map(base.map((seed) => [seed.uid, seed]));
  accounts.forEach((entry, i) => {
    const seed = accountSeed(entry, `simulator seed file ${path}: accounts[${i}]`, merged);
    merged.set(seed.uid, seed);
  });
  return [...merged.values()];
}

function accountSeed(entry: unknown, at: string, known: ReadonlyMap<string, SimAccountSeed>): SimAccountSeed {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new Error(`${at} must be a JSON object`);
  }
  const fields = entry as Record<string, unknown>;
  const unknownKeys = Object.keys(fields).filter((key) => !KNOWN_KEYS.has(key));
  if (unknownKeys.length > 0) throw new Error(`${at} has unknown keys: ${unknownKeys.join(', ')}`);
  const uid = ['string', 'number', 'bigint'].includes(typeof fields.uid) ? String(fields.uid) : '';
  if (uid === '') throw new Error(`${at}.uid must be a string or an integer`);
  const previous = known.get(uid);
  const credential = (key: (typeof CREDENTIAL_KEYS)[number]): string => {
    const value = fields[key] ?? previous?.[key];
    if (typeof value !== 'string' || value === '') {
      throw new Error(`${at}.${key} must be a non-empty string (required for a new uid)`);
    }
    return value;
  };
  const allowlisted = fields.aiLogAllowlisted ?? previous?.aiLogAllowlisted ?? false;
  if (typeof allowlisted !== 'boolean') throw new Error(`${at}.aiLogAllowlisted must be true or false`);
  const data: AccountDataSeed = { ...previous?.data };
  for (const kind of ACCOUNT_DATA_KINDS) {
    const given = fields[kind];
    if (given === undefined) continue;
    if (!Array.isArray(given)) throw new Error(`${at}.${kind} must be an array of objects`);
    data[kind] = given as Record<string, unknown>[];
  }
  return {
    uid,
    apiKey: credential('apiKey'),
    secret: credential('secret'),
    passphrase: credential('passphrase'),
    aiLogAllowlisted: allowlisted,
    data,
    extraOrders: previous?.extraOrders,
  };
}
