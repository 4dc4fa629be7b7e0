import { validateBody } from '#libs/http';
import { countCodePoints, CreateAiLogDto, isJsonObject, MAX_EXPLANATION_CHARS } from './create-ai-log.dto.js';
import { readOrderId } from './order-id.js';

const FIELDS = new Set(['orderId', 'stage', 'model', 'input', 'output', 'explanation']);

/**
 * Validates a posted log into a CreateAiLogDto, or throws ValidationFailedException naming every broken rule.
 * The DTO's class-validator rules are the only source of truth; this checks by hand, first, whether a body plainly
 * meets them, because class-validator looks up the class's metadata on every call (5-7% of ingest's main thread, with
 * its garbage). Anything the hand check is not sure of goes to class-validator, which gives the answer and the errors.
 * Property tests hold the two to the same verdict on every body a parser can make.
 */
export function readAiLog(body: unknown): CreateAiLogDto {
  return plainlyValid(body) ? Object.assign(new CreateAiLogDto(), body) : validateBody(CreateAiLogDto, body);
}

/** True only for a body that CreateAiLogDto's rules accept. */
export function plainlyValid(body: unknown): boolean {
  if (!isJsonObject(body)) return false;
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) return false;
  const { orderId, stage, model, input, output, explanation } = body;
  return (
    isFilled(stage) &&
    isFilled(model) &&
    isJsonObject(input) &&
    isJsonObject(output) &&
    typeof explanation === 'string' &&
    // Code points never outnumber UTF-16 units, so a short string needs no count.
    (explanation.length <= MAX_EXPLANATION_CHARS || countCodePoints(explanation) <= MAX_EXPLANATION_CHARS) &&
    (orderId == null || 'digits' in readOrderId(orderId))
  );
}

const isFilled = (value: unknown): boolean => typeof value === 'string' && value !== '';
