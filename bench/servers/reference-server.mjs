// Scenario 1's ceiling: the smallest NestJS app on the same HTTP adapter (@nestjs/platform-fastify), one POST route
// that takes the same JSON body and answers 202. Plain JS, so the decorators are applied by hand.
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

class ReferenceController {
  accept(body) {
    return { id: '0195f0c2-7d1a-7c3e-9a51-2b7e8d4c1f00', status: 'queued', receivedAt: new Date().toISOString(), bytes: body ? 1 : 0 };
  }
}
const method = Object.getOwnPropertyDescriptor(ReferenceController.prototype, 'accept');
Body()(ReferenceController.prototype, 'accept', 0);
HttpCode(202)(ReferenceController.prototype, 'accept', method);
Post('v1/ai-logs')(ReferenceController.prototype, 'accept', method);
Controller()(ReferenceController);

class ReferenceModule {}
Module({ controllers: [ReferenceController] })(ReferenceModule);

const app = await NestFactory.create(ReferenceModule, new FastifyAdapter({ bodyLimit: 1_048_576 }), { logger: ['error', 'warn'] });
await app.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => void app.close());
