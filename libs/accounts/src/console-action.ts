import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

const CONSOLE_ACTION = 'console:action';

/**
 * Marks a handler that changes something and that the console offers as a button: a console session may call it
 * (from the console's own pages). Every other change needs the key or the admin token as a bearer, so that a stolen or
 * ridden cookie can read but not post logs, cancel orders, or make accounts and keys.
 */
export const ConsoleAction = () => SetMetadata(CONSOLE_ACTION, true);

export const isConsoleAction = (reflector: Reflector, context: ExecutionContext): boolean =>
  reflector.getAllAndOverride<boolean | undefined>(CONSOLE_ACTION, [context.getHandler(), context.getClass()]) === true;
