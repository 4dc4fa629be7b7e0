import { type DynamicModule, Global, Module } from '@nestjs/common';
import { GatewayConfig } from './gateway-config.js';

/** Provides the validated configuration to every module; the process entry point loads it once. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: GatewayConfig, useValue: config }], exports: [GatewayConfig] };
  }
}
