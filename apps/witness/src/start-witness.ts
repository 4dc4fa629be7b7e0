import type { AddressInfo } from 'node:net';
import { FileStateStore, type KnownLog, parseKnownLogs, Witness } from '#libs/witness';
import { createWitnessServer, type WitnessLogger } from './witness-server.js';

export interface StartWitnessOptions {
  /** The witness's signer key, `PRIVATE+KEY+<name>+<hex key ID>+<base64>`. */
  key: string;
  /** The logs it cosigns for, or their WITNESS_LOGS text (`<origin> <vkey>` entries separated by `;` or new lines). */
  logs: readonly KnownLog[] | string;
  /** The JSON file of each origin's last cosigned size and root; created when missing. */
  stateFile: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 3300; 0 picks a free port. */
  port?: number;
  /** One line per request outcome; none by default. */
  logger?: WitnessLogger;
}

export interface RunningWitness {
  /** The submission prefix: POST `${url}/add-checkpoint`. */
  url: string;
  name: string;
  /** The witness's cosignature verifier key (type 0x04), for the log operator's list of witnesses. */
  verifierKey: string;
  /** Stops taking connections and resolves once the requests under way are answered. */
  close(): Promise<void>;
}

/** Starts a c2sp.org/tlog-witness witness: `npm run start:witness`, or inside another process (the sandbox gateway). */
export async function startWitness(options: StartWitnessOptions): Promise<RunningWitness> {
  const logs = typeof options.logs === 'string' ? parseKnownLogs(options.logs) : options.logs;
  const store = await FileStateStore.open(options.stateFile);
  const witness = new Witness({ key: options.key, logs, store });
  const server = createWitnessServer(witness, options.logger);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 3300;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`cannot listen on ${host}:${port}: ${error.message}`)));
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    name: witness.name,
    verifierKey: witness.verifierKey,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections(); // kept-alive connections with no request would hold close() open
      }),
  };
}
