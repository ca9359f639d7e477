-- Attacks the sandbox by running a shell command.
-- expect-error: os.execute is blocked in lifesim's sandbox (no access to the outside world); lifesim run --unsafe allows it
os.execute("ls")
