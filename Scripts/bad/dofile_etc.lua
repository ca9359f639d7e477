-- Attacks the sandbox by running an arbitrary file with dofile.
-- expect-error: dofile is blocked in lifesim's sandbox
dofile("/etc/passwd")
