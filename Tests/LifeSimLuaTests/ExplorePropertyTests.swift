import Foundation
import Testing
import LifeSimEngine
@testable import LifeSimLua

/// Properties of the search over random scripts and step sequences, from a
/// seeded generator (the same cases on every run):
/// (a) what the search concludes about a sequence is what `lifesim.replay`
///     of it concludes: its counterexample fails the same way, and no shorter
///     sequence fails;
/// (b) two sequences that reach one fingerprint have equal fingerprints
///     after every further step.
struct ExplorePropertyTests {
  /// SplitMix64: small, and the same everywhere.
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  }

  /// A random script: one or two apps, handlers that change Lua data and the
  /// device, a state key for the Lua data, and one invariant.
  struct Case {
    var source: String
    var alphabet: [String]
  }

  static func makeCase(_ g: inout Generator) -> Case {
    let ios = g.pick([12, 16])
    let twoApps = g.chance(50)
    var lines = ["local dev = lifesim.device{ ios = \(ios), memory_mb = 1000 }",
                 "local a = dev:install{ bundle = \"com.example.a\", footprint_mb = \(g.pick([200, 400, 600])), scenes = false }"]
    if twoApps {
      lines.append("local b = dev:install{ bundle = \"com.example.b\", footprint_mb = \(g.pick([200, 500])), scenes = false }")
    }
    lines.append("local count = 0")
    let counted = g.pick(["applicationDidBecomeActive:", "applicationDidEnterBackground:", "applicationWillResignActive:"])
    lines.append("a:on(\"\(counted)\", function(ctx) count = count + 1\(g.chance(60) ? " ctx:dirty(1)" : "") end)")
    if g.chance(50) { lines.append("a:on(\"applicationWillTerminate:\", function(ctx) ctx:save() end)") }
    if g.chance(50) {
      lines.append("a:on(\"applicationDidEnterBackground:\", function(ctx)")
      lines.append("  local task = ctx:begin_background_task(\"sync\")")
      lines.append("  ctx:after(\(g.pick([5, 20])), function() task:finish() end)")
      lines.append("end)")
    }
    lines.append("lifesim.state_key(function() return count end)")
    let limit = g.pick([2, 3, 4])
    var conditions = ["d.stats.unsaved_lost == 0", "count < \(limit)",
                      "not (a.state == \"background\" and count >= \(limit - 1))"]
    if twoApps { conditions.append("not (a.state == \"suspended\" and b.state == \"suspended\")") }
    lines.append("lifesim.invariant(\"generated\", function(d) return \(g.pick(conditions)), \"does not hold\" end)")

    var steps = ["launch com.example.a", "home", "lock", "unlock", "kill com.example.a", "memory_pressure",
                 "advance 10", "advance 60", "call", "end_call", "switcher", "background_fetch com.example.a"]
    if twoApps { steps += ["launch com.example.b", "kill com.example.b"] }
    // A few steps each time (always the launch, so that something happens).
    var alphabet = ["launch com.example.a"]
    while alphabet.count < 5 {
      let s = g.pick(steps)
      if !alphabet.contains(s) { alphabet.append(s) }
    }
    return Case(source: lines.joined(separator: "\n") + "\n", alphabet: alphabet)
  }

  static func folder() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-explore-properties-\(getpid())").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Runs `source` then `lifesim.replay{ steps }`: nil when it passes, else the message.
  static func replay(_ source: String, _ steps: [String]) throws -> String? {
    var o = RuntimeOptions()
    o.output = { _ in }
    let rt = try LuaRuntime(options: o)
    let list = steps.map { "\"\($0)\"" }.joined(separator: ", ")
    do {
      try rt.run(source: source + "lifesim.replay{ \(list) }\n", chunkName: "=generated")
      return nil
    } catch let f as LuaFailure {
      return f.message
    }
  }

  /// (a): a counterexample the search reports replays to the same violation,
  /// and sequences shorter than it (or any, up to the depth, when it finds
  /// none) replay without one.
  @Test func whatTheSearchConcludesAReplayConcludes() throws {
    var g = Generator(state: 0x5EED_0033)
    let dir = try Self.folder()
    var violations = 0, clean = 0
    for i in 0..<24 {
      let c = Self.makeCase(&g)
      let path = dir + "/case\(i).lua"
      try c.source.write(toFile: path, atomically: true, encoding: .utf8)
      var options = ExploreOptions()
      options.depth = 4
      options.actions = c.alphabet
      options.runtime.output = { _ in }
      let result = try Explorer(file: path, options: options).run()
      #expect(!result.truncated)
      let shortest: Int
      if let v = result.violation {
        violations += 1
        shortest = v.steps.count
        let message = try Self.replay(c.source, v.steps)
        let expected = v.steps.isEmpty ? "does not hold before any step"
          : v.invariant != nil ? "invariant 'generated' does not hold after \(v.steps.joined(separator: ", "))"
          : "after \(v.steps.joined(separator: ", ")):"
        #expect(message?.contains(expected) == true,
                "case \(i): the search found \(v.steps) (\(v.message)); the replay says \(message ?? "nothing")\n\(c.source)")
      } else {
        clean += 1
        shortest = options.depth + 1
      }
      // Sequences the search passed (shorter than its counterexample) pass a replay too.
      for _ in 0..<6 where shortest > 0 {
        let length = g.below(min(shortest, options.depth + 1))
        let steps = (0..<length).map { _ in g.pick(c.alphabet) }
        let message = try Self.replay(c.source, steps)
        #expect(message == nil, "case \(i): \(steps) fails on replay (\(message ?? "")) but the search found nothing that short\n\(c.source)")
      }
    }
    // The generator makes both kinds (else the property is checked on one side only).
    #expect(violations > 0 && clean > 0, "\(violations) cases with a violation, \(clean) without")
  }

  /// The fingerprint after `steps`, and after each of `then` in turn.
  static func fingerprints(_ source: String, _ steps: [String], then: [String]) throws -> [[UInt8]] {
    var o = RuntimeOptions()
    o.pinDevices = true
    o.output = { _ in }
    let rt = try LuaRuntime(options: o)
    try rt.run(source: source, chunkName: "=generated")
    let slot = try rt.exploreDevice()
    for s in steps { _ = try rt.take(s, on: slot) }
    var out = [try rt.exploreFingerprint(on: slot)]
    for s in then {
      _ = try rt.take(s, on: slot)
      out.append(try rt.exploreFingerprint(on: slot))
    }
    return out
  }

  /// (b): sequences that meet in one fingerprint go on alike.
  @Test func equalFingerprintsStayEqualAfterTheSameSteps() throws {
    var g = Generator(state: 0xF1A6_0033)
    var pairs = 0
    for i in 0..<12 {
      let c = Self.makeCase(&g)
      var byFingerprint: [[UInt8]: [String]] = [:]
      for _ in 0..<30 {
        let steps = (0..<g.below(4)).map { _ in g.pick(c.alphabet) }
        let fp = try Self.fingerprints(c.source, steps, then: [])[0]
        guard let other = byFingerprint[fp] else { byFingerprint[fp] = steps; continue }
        guard other != steps else { continue }
        pairs += 1
        let then = (0..<3).map { _ in g.pick(c.alphabet) }
        let a = try Self.fingerprints(c.source, other, then: then)
        let b = try Self.fingerprints(c.source, steps, then: then)
        #expect(a == b, "case \(i): \(other) and \(steps) share a fingerprint but differ after \(then)\n\(c.source)")
      }
    }
    #expect(pairs >= 10, "only \(pairs) pairs of sequences met in one fingerprint")
  }
}
