import Testing

/// A batch's errors about the names of an experiment's parameters and
/// metrics give `file:line` of its `lifesim.experiment{`, as its other
/// errors give the line of what they are about.
struct ExperimentPlaceTests {
  @Test(arguments: [
    ("param", "params = { [\"a\\nb\"] = { 1, 2 } }", "the parameter 'a\\nb' holds a control character"),
    ("metric", "params = { x = { 1 } }, metrics = { \"status\" }", "the metric 'status' is the name of a column every result file has"),
  ])
  func aBadNameGivesTheExperimentsLine(name: String, fields: String, message: String) throws {
    let dir = try HostileCLITests.folder("experiment-place-\(name)")
    let exp = dir + "/exp.lua"
    try HostileCLITests.write(exp, """
      -- an experiment whose \(name) name cannot be a column

      return lifesim.experiment{
        name = "bad", \(fields),
        run = function(p, seed) return { v = 1 } end,
      }
      """)
    let r = try lifesim(["batch", exp, "-o", dir + "/out.csv", "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("\(exp):3: \(message)"), "\(r.stderr)")
  }
}
