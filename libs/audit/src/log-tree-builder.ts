import { append, type Frontier, leafHash, parseFrontier, rootOf, serializeFrontier } from '#libs/merkle-tree';
import type { TreeLeafRow } from './audit-tree.repository.js';

/**
 * An account's log tree growing as the check verifies logs: leaf i is the canonical JSON (UTF-8) of the log at seq
 * i + 1, the bytes its chain hash covers. Keeps the rows made since they were last taken, for the check to store.
 */
export class LogTreeBuilder {
  private rows: TreeLeafRow[] = [];

  private constructor(
    private frontier: Frontier,
    private count: bigint,
  ) {}

  /** The tree of `size` leaves from its stored compact range; throws (MerkleArgumentError) when they do not fit. */
  static resume(stored: Uint8Array, size: bigint): LogTreeBuilder {
    return new LogTreeBuilder(parseFrontier(stored, size), size);
  }

  static empty(): LogTreeBuilder {
    return new LogTreeBuilder([], 0n);
  }

  get size(): bigint {
    return this.count;
  }

  add(canonical: string): void {
    const { stored, frontier } = append(this.frontier, this.count, leafHash(Buffer.from(canonical, 'utf8')));
    this.rows.push({ leafIndex: this.count, hashes: stored });
    this.frontier = frontier;
    this.count += 1n;
  }

  /** The rows made since the last call. */
  take(): TreeLeafRow[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  root(): Buffer {
    return rootOf(this.frontier, this.count);
  }

  serialized(): Buffer {
    return serializeFrontier(this.frontier, this.count);
  }
}
