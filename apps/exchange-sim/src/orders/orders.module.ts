import { Module } from '@nestjs/common';
import { OrderCancelService } from './order-cancel.service.js';
import { OrdersController } from './orders.controller.js';
import { OrdersService } from './orders.service.js';

@Module({ controllers: [OrdersController], providers: [OrdersService, OrderCancelService] })
export class OrdersModule {}
