import Foundation
import Testing

/// A result file's header names everything that changes a run: the options
/// (`--ios`, `--seed`, `--unsafe`, the limits) and every module and data file
/// the experiment read, when it loads and when its runs run. `--resume` and
/// `merge` compare them, so runs made two ways never share a file in
/// silence; a file from before they were recorded is still read, with a
/// warning.
struct ResultIdentityTests {
  static func folder(_ name: String) throws -> String {
    let path = tempPath("identity-\(name)")
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// An experiment that requires one module when it loads and another only
  /// inside `run`, and reads a data file there too.
  static func experiment(in dir: String) throws -> String {
    try "return { t = 1 }\n".write(toFile: dir + "/top.lua", atomically: true, encoding: .utf8)
    try "return { k = 2 }\n".write(toFile: dir + "/helper.lua", atomically: true, encoding: .utf8)
    try "0,com.example.a,open\n".write(toFile: dir + "/usage.csv", atomically: true, encoding: .utf8)
    try """
      local top = require "top"
      return lifesim.experiment{
        name = "mods", params = { n = { 1, 2 } }, seeds = 2,
        run = function(p, seed)
          local h = require "helper"
          local rows = lifesim.workload.read_csv("usage.csv")
          return { v = p.n * h.k + top.t + #rows }
        end,
      }
      """.write(toFile: dir + "/mods.lua", atomically: true, encoding: .utf8)
    return dir + "/mods.lua"
  }

  /// A module required only inside `run` runs, and is in the header with
  /// the one required when loading and the data file; changing any of them
  /// makes --resume refuse the file (and say which), putting it back lets it go on.
  @Test(arguments: ["csv", "jsonl", "sqlite"])
  func resumeRefusesAFileWhoseModulesOrDataChanged(format: String) throws {
    let dir = try Self.folder("modules-\(format)")
    let exp = try Self.experiment(in: dir)
    let out = "\(dir)/out.\(format)"
    let r = try lifesim(["batch", exp, "-o", out, "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let header = try lifesim(["summary", out, "--format", "json"]).stdout
    #expect(header.contains("\"modules\":{\"helper\":\""), "\(header.prefix(800))")
    #expect(header.contains(",\"top\":\""), "\(header.prefix(800))")
    #expect(header.contains("\"data\":{\"usage.csv\":\""), "\(header.prefix(800))")
    for (file, changed, what) in [("helper.lua", "return { k = 3 }\n", "module 'helper'"),
                                  ("top.lua", "return { t = 5 }\n", "module 'top'"),
                                  ("usage.csv", "0,com.example.b,open\n", "data file 'usage.csv'")] {
      let original = contents(dir + "/" + file)
      try changed.write(toFile: dir + "/" + file, atomically: true, encoding: .utf8)
      let refused = try lifesim(["batch", exp, "-o", out, "--resume", "--quiet"])
      #expect(refused.status == 2, "\(file): \(refused.stderr)")
      #expect(refused.stderr.contains(what) && refused.stderr.contains("sha256"), "\(file): \(refused.stderr)")
      try original.write(toFile: dir + "/" + file, atomically: true, encoding: .utf8)
    }
    let again = try lifesim(["batch", exp, "-o", out, "--resume", "--quiet"])
    #expect(again.status == 0, "\(again.stderr)")
  }

  /// Shards whose modules differ are not merged.
  @Test func mergeRefusesShardsThatReadDifferentModules() throws {
    let dir = try Self.folder("merge-modules")
    let exp = try Self.experiment(in: dir)
    let a = try lifesim(["batch", exp, "-o", dir + "/p0.csv", "--shard", "0/2", "--quiet"])
    #expect(a.status == 0, "\(a.stderr)")
    try "return { k = 3 }\n".write(toFile: dir + "/helper.lua", atomically: true, encoding: .utf8)
    let b = try lifesim(["batch", exp, "-o", dir + "/p1.csv", "--shard", "1/2", "--quiet"])
    #expect(b.status == 0, "\(b.stderr)")
    let m = try lifesim(["merge", dir + "/p0.csv", dir + "/p1.csv", "-o", dir + "/all.csv"])
    #expect(m.status == 2, "\(m.stderr)")
    #expect(m.stderr.contains("module 'helper' sha256"), "\(m.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/all.csv"))
  }

  /// --ios, --seed, --unsafe and the limits are in the header: shards or a
  /// resume that differ in one are refused, naming the flag.
  @Test func optionsThatChangeRunsAreComparedOnResumeAndMerge() throws {
    let dir = try Self.folder("options")
    let exp = try Self.experiment(in: dir)
    for (flags, said) in [(["--ios", "12"], "--ios 12, not 17"), (["--seed", "7"], "--seed 7, not 1"),
                          (["--max-instructions", "5000000"], "--max-instructions 5000000, not 300000000")] {
      let p0 = dir + "/p0.csv", p1 = dir + "/p1.csv"
      for p in [p0, p1] { unlink(p) }
      let a = try lifesim(["batch", exp, "-o", p0, "--shard", "0/2", "--quiet"])
      #expect(a.status == 0, "\(a.stderr)")
      let b = try lifesim(["batch", exp, "-o", p1, "--shard", "1/2", "--quiet"] + flags)
      #expect(b.status == 0, "\(b.stderr)")
      let m = try lifesim(["merge", p0, p1, "-o", dir + "/all.csv"])
      #expect(m.status == 2, "\(flags): \(m.stderr)")
      #expect(m.stderr.contains(said), "\(flags): \(m.stderr)")
      let r = try lifesim(["batch", exp, "-o", p0, "--resume", "--quiet"] + flags)
      #expect(r.status == 2, "\(flags): \(r.stderr)")
      #expect(r.stderr.contains("with other options or files") && r.stderr.contains(said.replacingOccurrences(of: "--ios 12, not 17", with: "--ios 17, not 12")
        .replacingOccurrences(of: "--seed 7, not 1", with: "--seed 1, not 7")
        .replacingOccurrences(of: "--max-instructions 5000000, not 300000000", with: "--max-instructions 300000000, not 5000000")),
              "\(flags): \(r.stderr)")
    }
  }

  /// A file whose header records no options or files (an older lifesim's)
  /// is resumed and merged, with a warning that says what cannot be checked.
  @Test func filesFromBeforeOptionsWereRecordedAreReadWithAWarning() throws {
    let dir = try Self.folder("old")
    let exp = try Self.experiment(in: dir)
    var parts: [String] = []
    for i in 0..<2 {
      let p = "\(dir)/p\(i).csv"
      let r = try lifesim(["batch", exp, "-o", p, "--shard", "\(i)/2", "--quiet"])
      #expect(r.status == 0, "\(r.stderr)")
      // The header as lifesim wrote it before options and files.
      var text = contents(p)
      let cut = try #require(text.range(of: ",\"options\":"))
      let end = try #require(text.range(of: "}\n", range: cut.lowerBound..<text.endIndex))
      text.replaceSubrange(cut.lowerBound..<end.lowerBound, with: "")
      try text.write(toFile: p, atomically: true, encoding: .utf8)
      parts.append(p)
    }
    #expect(contents(parts[0]).hasPrefix("# lifesim {\"experiment\":\"mods\"") && !contents(parts[0]).contains("options"))
    let m = try lifesim(["merge"] + parts + ["-o", dir + "/all.csv"])
    #expect(m.status == 0, "\(m.stderr)")
    #expect(m.stderr.contains("warning:") && m.stderr.contains("merge cannot check that the parts agree on them"), "\(m.stderr)")
    let r = try lifesim(["batch", exp, "-o", parts[0], "--resume", "--shard", "0/2", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("warning: \(parts[0]) does not record the options"), "\(r.stderr)")

    // A file from before header lines (its first line is the columns) is
    // resumed as it is: no header is put in place of its first line.
    let bare = dir + "/bare.csv"
    let whole = try lifesim(["batch", exp, "-o", bare, "--quiet"])
    #expect(whole.status == 0, "\(whole.stderr)")
    var lines = contents(bare).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeFirst()  // the header line
    lines.removeLast(2)  // the last row, and the end of the file
    try (lines.joined(separator: "\n") + "\n").write(toFile: bare, atomically: true, encoding: .utf8)
    let resumed = try lifesim(["batch", exp, "-o", bare, "--resume", "--quiet"])
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let after = contents(bare).split(separator: "\n").map(String.init)
    #expect(after.first == "run,n,seed,status,v,error", "\(after)")
    #expect(after.count == 5, "\(after)")
  }
}
