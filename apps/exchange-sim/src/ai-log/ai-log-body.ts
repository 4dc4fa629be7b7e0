import { parseJson } from '#libs/common';
import { SimError, SimFailure } from '../errors.js';

/** The uploadAiLog body (spec operation 1); unknown extra fields are ignored. */
export interface AiLogBody {
  orderId: number | bigint | null;
  stage: string;
  model: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  explanation: string;
}

/**
 * "At most 1000 characters" (spec), counted as Java's String.length() counts them, in UTF-16 code units (an emoji
 * counts 2): the spec's types (Long, Integer, String) point to a Java backend [G]. The gateway refuses the same at ingest.
 */
export const MAX_EXPLANATION_CHARS = 1000;

/** Parses the raw body losslessly and checks it like WEEX would; throws a ParameterInvalid SimError. */
export function parseAiLogBody(rawBody: string): AiLogBody {
  let body: unknown;
  try {
    body = parseJson(rawBody);
  } catch {
    throw invalid('Request body is not valid JSON');
  }
  if (!isJsonObject(body)) throw invalid('Request body must be a JSON object');

  const { orderId = null, stage, model, input, output, explanation } = body;
  if (typeof stage !== 'string' || stage === '') throw invalid('Parameter stage must be a non-empty string');
  if (typeof model !== 'string' || model === '') throw invalid('Parameter model must be a non-empty string');
  if (!isJsonObject(input)) throw invalid('Parameter input must be a JSON object');
  if (!isJsonObject(output)) throw invalid('Parameter output must be a JSON object');
  if (typeof explanation !== 'string') throw invalid('Parameter explanation must be a string');
  if (explanation.length > MAX_EXPLANATION_CHARS) {
    throw invalid(`Parameter explanation must be at most ${MAX_EXPLANATION_CHARS} characters`);
  }
  // A quoted orderId is refused: we take WEEX to want a bare JSON integer [G].
  if (!(orderId === null || typeof orderId === 'bigint' || Number.isInteger(orderId))) {
    throw invalid('Parameter orderId must be a JSON integer or null');
  }
  return { orderId: orderId as number | bigint | null, stage, model, input, output, explanation };
}

/** A plain object: not null, not an array, not a LosslessNumber (which is an object too). */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function invalid(message: string): SimError {
  return new SimError(SimFailure.ParameterInvalid, message);
}
