-- expect-error: field 'run' must be a function(p, seed) returning a table of metrics
return lifesim.experiment{ name = "norun", params = { x = { 1 } } }
