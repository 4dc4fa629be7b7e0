/** The token of an `Authorization: Bearer <token>` header, or undefined when the header is not of that form. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
}
