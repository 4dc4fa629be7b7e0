// Types of coverage-history.mjs for test/coverage-cost.e2e-spec.ts (bench/ is plain JavaScript).
export declare const ORDER_BASE: bigint;
export declare const ALGO_BASE: bigint;
export declare const UNKNOWN_BASE: bigint;
export declare function fillHistory(
  client: { query(text: string, values?: unknown[]): Promise<unknown> },
  options: { accountId?: string; logs: number; days: number; logsPerOrder: number; now?: number },
): Promise<{ orders: number }>;
