import { type ArgumentsHost, Catch, type ExceptionFilter, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayConfig } from '#libs/config';
import { HttpExceptionFilter } from '#libs/http';
import { sendOtlpStatus } from './otlp-status.js';

/** Every error of the OTLP controller (its guard's 401, 403 and 429 too) as OTLP's Status, not the API's ErrorBody. */
@Catch()
@Injectable()
export class OtlpStatusFilter implements ExceptionFilter {
  private readonly errors = new HttpExceptionFilter();

  constructor(private readonly config: GatewayConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendOtlpStatus(this.errors, exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.config.otlpBodyLimitBytes);
  }
}
