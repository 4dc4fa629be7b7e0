export const PG_URL: string;
export const REDIS_URL: string;
/** The hosts of the services that cannot be reached; none means the end-to-end tests can run. */
export function missingServices(): Promise<string[]>;
