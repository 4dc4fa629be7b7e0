import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DatabasePool, type DatabasePoolOptions, WindowReadPool } from './database-pool.js';
import { PrismaService } from './prisma.service.js';
import { SqlPool } from './sql-pool.js';

export const DATABASE_URL = Symbol('DATABASE_URL');

/**
 * Provides PrismaService (on DatabasePool, which `pool` configures), WindowReadPool and ingest's SqlPool for the
 * PostgreSQL the process prepared at start (a server, or embedded PGlite).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: { url: string; pool?: DatabasePoolOptions }): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_URL, useValue: options.url },
        { provide: DatabasePool, useFactory: () => new DatabasePool(options.url, options.pool) },
        {
          provide: WindowReadPool,
          useFactory: () => new WindowReadPool(options.url, { requests: options.pool?.requests, max: options.pool?.windowReadConnections ?? 2 }),
        },
        { provide: PrismaService, useFactory: (pool: DatabasePool) => new PrismaService(pool), inject: [DatabasePool] },
        { provide: SqlPool, useFactory: () => new SqlPool(options.url) },
      ],
      exports: [PrismaService, DatabasePool, WindowReadPool, SqlPool, DATABASE_URL],
    };
  }
}
