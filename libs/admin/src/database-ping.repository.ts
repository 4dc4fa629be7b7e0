import { Injectable } from '@nestjs/common';
import { PrismaService } from '#libs/database';

/** The readiness check's question to PostgreSQL. */
@Injectable()
export class DatabasePingRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Resolves once the database has answered `SELECT 1`; throws otherwise. */
  async ping(): Promise<void> {
    await this.prisma.$queryRaw`SELECT 1`;
  }
}
