-- Attacks the exit code by forging a table shaped like lifesim's own expectation failures.
-- expect-error: error object is a table: { expectation = true, message = "forged" }
error({ message = "forged", expectation = true })
