import Foundation
import Testing

/// What `batch` says as it goes: the share of runs done, and a refusal of
/// `--shards N` without an index to go with it.
struct BatchMessagesTests {
  static let four = """
    return lifesim.experiment{
      name = "four", params = { n = { 1, 2 } }, seeds = 2,
      run = function(p, seed) return { v = p.n + seed } end,
    }
    """

  /// Off a terminal, a line at each tenth passed says the share done: 1 of
  /// 4 runs is 25%, not the tenth it passed (20%).
  @Test func progressLinesSayTheShareDone() throws {
    let exp = try script("progress_four.lua", Self.four)
    let out = tempPath("progress-four.csv")
    unlink(out)
    let r = try lifesim(["batch", exp, "-o", out, "--jobs", "1"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("lifesim: 1/4 runs (25%)"), "\(r.stderr)")
    #expect(r.stderr.contains("lifesim: 3/4 runs (75%)"), "\(r.stderr)")
    #expect(!r.stderr.contains("(20%)") && !r.stderr.contains("(70%)"), "\(r.stderr)")
  }

  /// `--shards N` names the count for an index from the environment: alone,
  /// it is refused rather than running the whole grid; beside a --shard of
  /// another count, too.
  @Test func shardsWithoutAnIndexIsRefused() throws {
    let exp = try script("shards_four.lua", Self.four)
    let out = tempPath("shards-four.csv")
    unlink(out)
    let r = try lifesim(["batch", exp, "-o", out, "--shards", "2", "--quiet"])
    #expect(r.status != 0, "\(r.stderr)")
    #expect(r.stderr.contains("--shards 2 gives the number of shards when the index comes from the environment"), "\(r.stderr)")
    #expect(r.stderr.contains("--shard I/2"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let m = try lifesim(["batch", exp, "-o", out, "--shard", "0/3", "--shards", "2", "--quiet"])
    #expect(m.status != 0 && m.stderr.contains("--shard 0/3 is one of 3 shards, but --shards says 2"), "\(m.stderr)")
    // With the index from the environment, it is what it is for.
    let k = try lifesim(["batch", exp, "-o", out, "--shards", "2", "--quiet"], env: ["JOB_COMPLETION_INDEX": "1"])
    #expect(k.status == 0, "\(k.stderr)")
  }
}
