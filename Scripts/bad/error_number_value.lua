-- Attacks the error reporter with a number as the error value.
-- expect-error: error object is a number: 42
error(42)
