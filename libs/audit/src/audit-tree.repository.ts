import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';
import { HASH_SIZE, type HashReader, type NodeRef, storedAt } from '#libs/merkle-tree';

/** One leaf's row: the complete subtrees that end at it, levels 0..t (libs/merkle-tree `append`'s `stored`). */
export interface TreeLeafRow {
  leafIndex: bigint;
  hashes: Buffer[];
}

/** The stored hashes of each account's log tree (audit_log_tree): written as the check verifies logs, read by proofs. */
@Injectable()
export class AuditTreeRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Stores the leaves' rows in one statement. A run that died may have stored some of them already: they are written
   * again from the same verified links, so the last writer's hashes are the chain's.
   */
  async store(accountId: string, rows: readonly TreeLeafRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.prisma.$executeRaw`
      INSERT INTO audit_log_tree (account_id, leaf_index, hashes)
      SELECT ${accountId}, i, decode(h, 'base64')
      FROM unnest(${rows.map((r) => r.leafIndex.toString())}::text[]::bigint[], ${rows.map((r) => Buffer.concat(r.hashes).toString('base64'))}::text[]) AS t(i, h)
      ON CONFLICT (account_id, leaf_index) DO UPDATE SET hashes = EXCLUDED.hashes`;
  }

  /** A HashReader over the account's tree: every ref of a proof in one query. */
  reader(accountId: string): HashReader {
    return async (refs: ReadonlyArray<NodeRef>) => {
      const places = refs.map(storedAt);
      const indexes = [...new Set(places.map((p) => p.leafIndex.toString()))];
      const rows = await this.prisma.$queryRaw<Array<{ leaf_index: string; hashes: Uint8Array }>>`
        SELECT leaf_index::text AS leaf_index, hashes FROM audit_log_tree
        WHERE account_id = ${accountId} AND leaf_index = ANY(${indexes}::text[]::bigint[])`;
      const byIndex = new Map(rows.map((r) => [r.leaf_index, Buffer.from(r.hashes)]));
      // A missing row or level answers an empty hash, which the tree library reports as the storage's fault.
      return places.map(({ leafIndex, level }) => byIndex.get(leafIndex.toString())?.subarray(level * HASH_SIZE, (level + 1) * HASH_SIZE) ?? Buffer.alloc(0));
    };
  }
}
