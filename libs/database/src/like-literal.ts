/** Prisma passes `contains` into ILIKE as it is: escaped here, a `%` or `_` the user typed is that character. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, '\\$&');
