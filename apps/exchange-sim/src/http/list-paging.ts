/** Lists the way WEEX serves them: newest first, cut into pages counted from 0. */

/** Items of page `page` (from 0) of size `limit`. */
export function pageOf<T>(items: readonly T[], page: number, limit: number): T[] {
  return items.slice(page * limit, (page + 1) * limit);
}

/** Newest first by `time`, ties broken by the larger ID. */
export function newestFirst<T>(items: readonly T[], time: (item: T) => number, id: (item: T) => bigint): T[] {
  return [...items].sort((a, b) => time(b) - time(a) || (id(b) > id(a) ? 1 : id(b) < id(a) ? -1 : 0));
}
