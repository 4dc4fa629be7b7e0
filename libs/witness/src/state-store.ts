/** The latest checkpoint the witness cosigned for one origin: all it needs to check the next one. */
export interface TreeHead {
  size: bigint;
  /** The RFC 6962 root hash, 32 bytes. */
  root: Buffer;
}

/**
 * Where the witness keeps each origin's latest cosigned tree head. `set` resolves only once the head is durable: the
 * witness answers with a cosignature only after it, so a crash never forgets a size it cosigned.
 */
export interface WitnessStateStore {
  get(origin: string): Promise<TreeHead | undefined>;
  set(origin: string, head: TreeHead): Promise<void>;
}

/** A store in memory, for tests and for a witness nobody needs to remember. */
export class MemoryStateStore implements WitnessStateStore {
  readonly heads = new Map<string, TreeHead>();

  async get(origin: string): Promise<TreeHead | undefined> {
    return this.heads.get(origin);
  }

  async set(origin: string, head: TreeHead): Promise<void> {
    this.heads.set(origin, { size: head.size, root: Buffer.from(head.root) });
  }
}
