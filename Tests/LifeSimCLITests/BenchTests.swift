import Foundation
import Testing

/// `lifesim bench` runs every figure and prints each with its reference. Its
/// numbers are checked by running it (docs/performance.md), never here: a
/// timed test would fail on a busy machine.
struct BenchTests {
  @Test func everyFigureRunsAndNamesItsReference() throws {
    let r = try lifesim(["bench", "--repeat", "1", "--seeds", "1", "--records", "2000", "--batch-runs", "20",
                         "--jobs", "2"])
    #expect(r.status == 0, "\(r.stderr)")
    for line in ["dispatch", "the cost of lua_pcall from C", "engine", "records/s (no Lua, trace off)",
                 "trace", "JSONL records/s", "experiment, --jobs 1", "experiment, --jobs 2", "× --jobs 1",
                 "memory, 7-day 30-app run", "memory, 2,000 records", "memory, 20-run batch", "2 runs"] {
      #expect(r.stdout.contains(line), "no '\(line)' in:\n\(r.stdout)")
    }
  }

  @Test func badOptionsAreUsageErrors() throws {
    let r = try lifesim(["bench", "--only", "speed"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("--only takes dispatch, engine, trace, experiment, memory"))
  }
}
