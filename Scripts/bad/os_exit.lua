-- Attacks the runner by exiting the process early with a success code.
-- expect-error: os.exit is blocked in lifesim's sandbox
os.exit(0)
