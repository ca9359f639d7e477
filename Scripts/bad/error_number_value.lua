-- Attacks the error reporter with a number as the error value.
-- expect-error: (error object is a number value: 42)
error(42)
