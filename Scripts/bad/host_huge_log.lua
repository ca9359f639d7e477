-- Attacks host memory with a log record of two megabytes (a script's text is copied into the trace).
-- expect-error: the text is 2097152 bytes long; a record's text is at most 1 MB
local dev = lifesim.device{ ios = 17 }
dev:log(string.rep("x", 2 * 1024 * 1024))
