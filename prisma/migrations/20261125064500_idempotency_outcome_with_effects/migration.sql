-- A key's answer is now written in the transaction that commits the request's effects: a row without one was a
-- reservation of a request in flight (or dead), which nothing needs any more.
DELETE FROM "idempotency_keys" WHERE "response_status" IS NULL OR "response_body" IS NULL;

-- AlterTable
ALTER TABLE "idempotency_keys" DROP COLUMN "locked_until",
ALTER COLUMN "response_status" SET NOT NULL,
ALTER COLUMN "response_body" SET NOT NULL;
