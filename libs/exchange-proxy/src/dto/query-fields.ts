import { applyDecorators } from '@nestjs/common';
import { IsOptional } from 'class-validator';
import { QueryInteger } from '#libs/validation';
import { IsIntFrom, IsMillis, IsSymbol } from './param-rules.js';

// The optional query fields the spec's list operations share, each one decorator, so that a DTO states only what
// differs between operations (ranges, windows). Applied in the order the same decorators would run when stacked
// (bottom first), so class-validator lists a field's failures as before.
export const stacked = (...decorators: PropertyDecorator[]): PropertyDecorator => applyDecorators(...decorators.reverse());

/** An optional contract symbol (`BTCUSDT`). */
export const OptionalSymbol = (): PropertyDecorator => stacked(IsOptional(), IsSymbol());

/** An optional integer query parameter in [min, max], and the exchange's default for it. */
export const OptionalInt = (min: number, max?: number, fallback?: number): PropertyDecorator =>
  stacked(QueryInteger(), IsOptional(), IsIntFrom(min, max, fallback));

/** An optional Unix time in ms, and the operation's own rules for it (`NotBefore('startTime')`, windows). */
export const OptionalMillis = (...rules: PropertyDecorator[]): PropertyDecorator => stacked(QueryInteger(), IsOptional(), IsMillis(), ...rules);
