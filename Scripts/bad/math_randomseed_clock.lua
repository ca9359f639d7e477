-- Attacks determinism by reseeding math.random from the clock.
-- expect-error: math.randomseed() without a seed reads the clock
math.randomseed()
