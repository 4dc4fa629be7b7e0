import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type LlmUpstream, LlmUpstreamService } from '#libs/accounts';
import { GatewayConfig } from '#libs/config';
import { type RunningStandInModel, startStandInModel } from '#libs/llm-stand-in';
import { LlmGatewayException } from './llm-gateway.exception.js';

/**
 * The provider an account's model calls go to: the one configured for it, else in sandbox mode the built-in stand-in
 * model (started on 127.0.0.1 with the first call that needs it, stopped with the API), else none: 503.
 */
@Injectable()
export class LlmUpstreams implements OnApplicationShutdown {
  private readonly logger = new Logger(LlmUpstreams.name);
  private standIn?: Promise<RunningStandInModel>;

  constructor(
    private readonly config: GatewayConfig,
    private readonly upstreams: LlmUpstreamService,
  ) {}

  async resolve(accountId: string): Promise<LlmUpstream> {
    const configured = await this.upstreams.configured(accountId);
    if (configured) return configured;
    if (this.config.sandbox) return { baseUrl: (await this.sandboxModel()).url, apiKey: undefined };
    throw new LlmGatewayException(
      'LLM_UPSTREAM_NOT_CONFIGURED',
      `account ${accountId} has no model provider: set LLM_UPSTREAM_URL (the default account) or PUT /admin/accounts/${accountId}/llm-upstream`,
    );
  }

  private sandboxModel(): Promise<RunningStandInModel> {
    this.standIn ??= startStandInModel().then(
      (model) => {
        this.logger.log(`sandbox: model calls without a provider of their own go to the stand-in model at ${model.url}`);
        return model;
      },
      (error: unknown) => {
        this.standIn = undefined; // the next call tries again
        throw error;
      },
    );
    return this.standIn;
  }

  async onApplicationShutdown(): Promise<void> {
    await (await this.standIn?.catch(() => undefined))?.close();
  }
}
