import { ArrayUnique, IsArray, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { AGENT_SCOPES, type AgentScope } from '#libs/config';
import { IsHttpBaseUrl } from './http-url.js';

const url = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

/** The exchange credentials of an account; stored encrypted, never returned. */
export class AccountCredentialsDto {
  @IsString() @IsNotEmpty() @MaxLength(256) apiKey: string;
  @IsString() @IsNotEmpty() @MaxLength(256) secret: string;
  @IsString() @IsNotEmpty() @MaxLength(256) passphrase: string;
}

export class CreateAccountDto extends AccountCredentialsDto {
  @Matches(/^[a-z0-9][a-z0-9_-]{0,63}$/, { message: 'id must be 1-64 lower-case letters, digits, _ or -, starting with a letter or digit' })
  id: string;

  @IsString() @IsNotEmpty() @MaxLength(200) name: string;

  @IsOptional() @IsUrl(url) baseUrl?: string;
  @IsOptional() @IsUrl(url) spotBaseUrl?: string;
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) ipWeightLimit?: number;
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) uidWeightLimit?: number;
}

export class CreateAgentKeyDto {
  @IsString() @IsNotEmpty() accountId: string;

  @IsString() @IsNotEmpty() @MaxLength(200) label: string;

  /** Default: logs:write and exchange:read; exchange:cancel must be asked for. */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(AGENT_SCOPES, { each: true, message: `each of scopes must be one of ${AGENT_SCOPES.join(', ')}` })
  scopes?: AgentScope[];

  /** Logs (and other requests) per minute; default AGENT_RATE_LIMIT_PER_MIN; 0 means no limit. */
  @IsOptional() @IsInt() @Min(0) @Max(1_000_000) rateLimitPerMin?: number;
}

/** `GET /admin/agents?accountId=`: the keys of one account, or of all. */
export class ListAgentKeysQueryDto {
  @IsOptional() @IsString() @IsNotEmpty() @MaxLength(64) accountId?: string;
}

/** `PUT /admin/accounts/:id/llm-upstream`: the OpenAI-compatible provider of the account's model calls, and its key. */
export class LlmUpstreamDto {
  /**
   * The provider's base URL, as an OpenAI client's `base_url`: `https://api.openai.com/v1`. No user:password in it (the
   * key goes in apiKey, sent as a bearer), no query or fragment (the call's path is appended to it).
   */
  @IsHttpBaseUrl('apiKey')
  @JSONSchema({ format: 'url' })
  @MaxLength(2000)
  baseUrl: string;

  /** The account's API key there; stored encrypted, never returned. Sent in a header, so no spaces or line breaks. */
  @IsString()
  @Matches(/^[\x21-\x7e]+$/, { message: 'apiKey must be printable ASCII without spaces or line breaks: it is sent in the Authorization header' })
  @MaxLength(4096)
  apiKey: string;
}
