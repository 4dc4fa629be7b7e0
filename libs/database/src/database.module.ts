import { type DynamicModule, Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service.js';
import { SqlPool } from './sql-pool.js';

export const DATABASE_URL = Symbol('DATABASE_URL');

/** Provides PrismaService for the PostgreSQL the process prepared at start (a server, or embedded PGlite). */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: { url: string }): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_URL, useValue: options.url },
        { provide: PrismaService, useFactory: () => new PrismaService(options.url) },
        { provide: SqlPool, useFactory: () => new SqlPool(options.url) },
      ],
      exports: [PrismaService, SqlPool, DATABASE_URL],
    };
  }
}
