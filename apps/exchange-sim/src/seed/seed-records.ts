import { LosslessNumber } from '#libs/common';

/**
 * Turns user-written records (seed file or `SimAccountSeed.data`) into complete ones: each value is converted to the
 * type the generated record has in that field (IDs to bigint, times to numbers, amounts to strings), then `make`
 * generates the fields the user left out around the ones given. Unknown fields are kept as written.
 */
export function fromSeedRecords<T extends object>(where: string, records: unknown, make: (hints: Partial<T>) => T): T[] {
  if (!Array.isArray(records)) throw new Error(`${where} must be an array`);
  return records.map((raw, i) => {
    const at = `${where}[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${at} must be a JSON object`);
    const template = make({}) as Record<string, unknown>;
    const hints: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) hints[key] = coerceLike(template[key], value, `${at}.${key}`);
    try {
      return make(hints as Partial<T>);
    } catch (error) {
      throw new Error(`${at}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  });
}

function coerceLike(example: unknown, value: unknown, at: string): unknown {
  if (example === undefined || value === null) return value;
  switch (typeof example) {
    case 'bigint':
      return BigInt(integerText(value, at));
    case 'number': {
      const text = integerText(value, at);
      return Number.isSafeInteger(Number(text)) ? Number(text) : BigInt(text);
    }
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'bigint' || value instanceof LosslessNumber) return String(value);
      throw new Error(`${at} must be a string or a number`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      throw new Error(`${at} must be true or false`);
    default:
      return value;
  }
}

/** An integer of any size, given as a JSON integer or as a string of digits. */
function integerText(value: unknown, at: string): string {
  const text = typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number' ? String(value) : '';
  if (!/^-?\d+$/.test(text)) throw new Error(`${at} must be an integer (a JSON integer or a string of digits)`);
  return text;
}
