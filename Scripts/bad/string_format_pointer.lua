-- Attacks determinism by printing an address with %p.
-- expect-error: %p prints an address, which changes from run to run
print(string.format("%p", {}))
