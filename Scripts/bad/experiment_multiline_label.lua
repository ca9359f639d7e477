-- expect-error: labels are one line
-- A run's string metric (a label) with a line break would split its result row.
return lifesim.experiment{ name = "labels", run = function(p, seed) return { label = "two\nlines" } end }
