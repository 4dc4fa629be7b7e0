import { parseJson } from '#libs/common';
import { SimError, SimFailure } from '../errors.js';

/** Checks for the simulator's control bodies (`PUT /__sim/budgets`, `/__sim/faults`); each throws ParameterInvalid. */
export function requireObject(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${name} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

export function rejectUnknownKeys(value: Record<string, unknown>, known: readonly string[], name: string): void {
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw invalid(`${name} has unknown field(s): ${unknown.join(', ')}`);
}

export function requireInteger(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalid(`${name} must be an integer >= ${min}`);
  }
  return value;
}

export function requireRate(value: unknown, name: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw invalid(`${name} must be a number from 0 to 1`);
  return value;
}

export function requireBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw invalid(`${name} must be true or false`);
  return value;
}

export function invalid(message: string): SimError {
  return new SimError(SimFailure.ParameterInvalid, message);
}

/** A control body arrives as raw text (the simulator keeps bodies unparsed for signing). */
export function parseControlBody(body: unknown): unknown {
  if (typeof body !== 'string' || body.trim() === '') throw invalid('Request body must be a JSON object');
  try {
    return parseJson(body);
  } catch {
    throw invalid('Request body is not valid JSON');
  }
}
