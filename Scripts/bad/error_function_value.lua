-- Attacks the error reporter with a function as the error value.
-- expect-error: error object is a function: <function: builtin>
error(print)
