import { findUnstorableText, holdsOnlyStorableText } from '#libs/common';
import { type FieldError, validateBody, ValidationFailedException } from '#libs/validation';
import { CreateAiLogDto, isJsonObject, MAX_EXPLANATION_CHARS } from './create-ai-log.dto.js';
import { readOrderId } from './order-id.js';

const FIELDS = new Set(['orderId', 'stage', 'model', 'input', 'output', 'explanation']);

/**
 * Validates a posted log into a CreateAiLogDto, or throws ValidationFailedException naming every broken rule.
 * The DTO's class-validator rules are the only source of truth; this checks by hand, first, whether a body plainly
 * meets them, because class-validator looks up the class's metadata on every call (5-7% of ingest's main thread, with
 * its garbage). Anything the hand check is not sure of goes to class-validator, which gives the answer and the errors.
 * Property tests hold the two to the same verdict on every body a parser can make.
 *
 * `mayHoldUnstorableText` false (the body parser's proof from the text, see CheckedTextRequest) spares the walk of
 * every string that looks for ones PostgreSQL cannot store.
 */
export function readAiLog(body: unknown, mayHoldUnstorableText = true): CreateAiLogDto {
  return plainlyValid(body, mayHoldUnstorableText) ? Object.assign(new CreateAiLogDto(), body) : validateAiLog(body);
}

/** True only for a body that CreateAiLogDto's rules accept. */
export function plainlyValid(body: unknown, mayHoldUnstorableText = true): boolean {
  if (!isJsonObject(body)) return false;
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) return false;
  const { orderId, stage, model, input, output, explanation } = body;
  return (
    isFilled(stage) &&
    isFilled(model) &&
    isJsonObject(input) &&
    isJsonObject(output) &&
    typeof explanation === 'string' &&
    // UTF-16 code units, as WEEX's Java backend counts (MAX_EXPLANATION_CHARS): String.length is exactly that.
    explanation.length <= MAX_EXPLANATION_CHARS &&
    (orderId == null || 'digits' in readOrderId(orderId)) &&
    (!mayHoldUnstorableText || holdsOnlyStorableText(body))
  );
}

/** class-validator's answer, an unstorable string named by its exact path rather than by the field that holds it. */
function validateAiLog(body: unknown): CreateAiLogDto {
  try {
    return validateBody(CreateAiLogDto, body);
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    throw new ValidationFailedException(error.errors.map((e) => exactPath(e, body)));
  }
}

function exactPath(error: FieldError, body: unknown): FieldError {
  const field = typeof body === 'object' && body !== null && Object.hasOwn(body, error.path) ? (body as Record<string, unknown>)[error.path] : undefined;
  const unstorable = findUnstorableText(field, error.path);
  return unstorable?.message === error.message ? unstorable : error;
}

const isFilled = (value: unknown): boolean => typeof value === 'string' && value !== '';
