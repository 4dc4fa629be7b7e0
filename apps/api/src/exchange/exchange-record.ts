import { ApiSchema } from '@nestjs/swagger';

/**
 * The exchange's records as the account and order endpoints return them: every field of the spec's tables, IDs as
 * digit strings, amounts as decimal text, times in ms. Fields the exchange adds beyond the spec are passed on, so
 * each record allows more properties than it lists.
 */
export const ExchangeRecord = (description: string): ClassDecorator => ApiSchema({ description, additionalProperties: true } as { description: string });
