-- Attacks the error reporter with an error value that is a plain table.
-- expect-error: error object is a table: { code = 1 }
error({ code = 1 })
