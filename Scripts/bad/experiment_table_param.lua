-- expect-error: values must be numbers, strings or booleans
-- Parameter values go into result files, so they are plain values; name a policy by a string.
return lifesim.experiment{ name = "tables", params = { policy = { {}, {} } },
                           run = function(p, seed) return { x = 1 } end }
