import { join } from 'node:path';
import { newSigningKeyPem, noteVerifierKey, readSigningKey, SANDBOX_AUDIT_KEY_FILE } from '#libs/audit-chain';
import { configuredOrSandboxSecret, readOrCreateSecretFile } from '#libs/common';
import type { GatewayConfig } from '#libs/config';
import { generateKey } from '#libs/signed-note';
import { type RunningWitness, startWitness } from '../../witness/src/start-witness.js';
import { SANDBOX_KEY_FILE, SANDBOX_WITNESS_NAME } from '../../witness/src/witness-config.js';

/** The local witness's state under DATA_DIR. */
export const SANDBOX_WITNESS_STATE_FILE = 'sandbox-witness-state.json';

/**
 * The witness `npm start` runs in sandbox mode, so that a new user's proofs are cosigned with no set-up: its key and
 * state in DATA_DIR, trusting the sandbox's checkpoint key for every account's origin. Answers it with the
 * AUDIT_WITNESSES entry that names it.
 */
export async function startSandboxWitness(config: GatewayConfig): Promise<{ witness: RunningWitness; entry: string }> {
  const pem = configuredOrSandboxSecret(config.auditSigningKey, config, SANDBOX_AUDIT_KEY_FILE, newSigningKeyPem)!;
  const gatewayKey = noteVerifierKey(readSigningKey(pem), config.auditOrigin);
  const witness = await startWitness({
    key: readOrCreateSecretFile(config.dataDir, SANDBOX_KEY_FILE, () => generateKey(SANDBOX_WITNESS_NAME).signerKey),
    logs: `${config.auditOrigin}/* ${gatewayKey}`,
    stateFile: join(config.dataDir, SANDBOX_WITNESS_STATE_FILE),
    port: 0,
  });
  return { witness, entry: `${witness.url} ${witness.verifierKey}` };
}
