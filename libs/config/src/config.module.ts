/** Provides the validated TrawlConfig to every module under the TRAWL_CONFIG token. */
import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { TrawlConfig } from './config.schema.js';

export const TRAWL_CONFIG = Symbol('TRAWL_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: TrawlConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: TRAWL_CONFIG, useValue: config }],
      exports: [TRAWL_CONFIG],
    };
  }
}
