/** The last link of an account's chain of model calls. */
export interface ChainHead {
  seq: bigint;
  hash: string;
}

/** A row of `lastLinks`. */
export interface LastLink {
  account_id: string;
  seq: string;
  hash: string;
}

/**
 * The head of each account's chain as this process last saw it committed: by a write of its own, or read under the
 * chain's lock. A guess, never trusted: a write placed after a head commits only if that is still the last link
 * (`headsAre`), since other processes append to the same chains.
 */
export class KnownHeads {
  private readonly heads = new Map<string, ChainHead>();

  /** The known head of each account; undefined for an account whose chain this process has not seen. */
  of(accounts: string[]): Map<string, ChainHead | undefined> {
    return new Map(accounts.map((accountId) => [accountId, this.heads.get(accountId)]));
  }

  /** The heads as read (`lastLinks`); an account without a row has no link yet. */
  read(accounts: string[], rows: LastLink[]): Map<string, ChainHead | undefined> {
    const read = new Map(rows.map((row) => [row.account_id, { seq: BigInt(row.seq), hash: row.hash }]));
    for (const accountId of accounts) this.set(accountId, read.get(accountId));
    return this.of(accounts);
  }

  set(accountId: string, head: ChainHead | undefined): void {
    if (head) this.heads.set(accountId, head);
    else this.heads.delete(accountId);
  }

  /** After a write whose outcome is unknown: the next one reads the heads. */
  forget(accounts: string[]): void {
    for (const accountId of accounts) this.heads.delete(accountId);
  }
}

/** The last link of each account (literals, escaped), under their locks: one row per account that has one. */
export const lastLinks = (
  accounts: string[],
) => `SELECT a.id AS account_id, l.seq::text AS seq, l.hash FROM unnest(ARRAY[${accounts.join(', ')}]::text[]) AS a(id)
  JOIN LATERAL (SELECT seq, hash FROM model_calls m WHERE m.account_id = a.id ORDER BY m.seq DESC LIMIT 1) l ON true`;

/**
 * A condition that holds when each account's last link is its head in `heads`, or when it has no link where its head
 * is undefined. `literal` escapes text for the statement.
 */
export function headsAre(heads: Map<string, ChainHead | undefined>, literal: (text: string) => string): string {
  return [...heads]
    .map(([accountId, head]) =>
      head
        ? `(SELECT m.seq = ${head.seq} AND m.hash = ${literal(head.hash)} FROM model_calls m WHERE m.account_id = ${literal(accountId)} ORDER BY m.seq DESC LIMIT 1)`
        : `NOT EXISTS (SELECT FROM model_calls m WHERE m.account_id = ${literal(accountId)})`,
    )
    .join(' AND ');
}
