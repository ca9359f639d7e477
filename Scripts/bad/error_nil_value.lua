-- Attacks the error reporter with error(nil), an error that has no value at all.
-- expect-error: error object is nil
error(nil)
