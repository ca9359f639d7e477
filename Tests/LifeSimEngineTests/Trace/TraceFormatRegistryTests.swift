import Testing
@testable import LifeSimEngine

/// One row per trace format: what a file of it holds comes from its row.
struct TraceFormatRegistryTests {
  func trace() throws -> Device {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    try dev.home()
    return dev
  }

  // What any set of rows holds, so that a new format is its row, its writer
  // and its own test, and no line here.
  @Test func theRowsAreTheFormats() {
    let names = TraceFormatRow.all.map(\.name)
    #expect(Array(names.prefix(3)) == ["text", "jsonl", "chrome"])
    #expect(Set(names).count == names.count)
    #expect(TraceFormatRow.list(Array(TraceFormatRow.all.prefix(3))) == "text, jsonl or chrome")
    for row in TraceFormatRow.all { #expect(TraceFormatRow.named(row.name)?.name == row.name) }
    #expect(TraceFormatRow.named("chrome")?.extensions.first == "json")
    #expect(TraceFormatRow.named("no-such-format") == nil)
  }

  @Test func renderingARowWritesWhatItsWriterWrites() throws {
    let dev = try trace()
    #expect(TraceFormatRow.named("chrome")!.render(dev.trace, since: 2) == ChromeTraceWriter.render(dev.trace, since: 2))
    #expect(TraceFormatRow.named("jsonl")!.render(dev.trace) == TraceWriter(format: .jsonl).render(dev.trace))
    #expect(TraceFormatRow.named("text")!.render(dev.trace) == TraceWriter(format: .text).render(dev.trace))
  }

  @Test func aFileOfSeveralDevicesNamesThem() throws {
    let a = try trace(), b = try trace()
    let file = TraceFormatRow.named("text")!.file(.objc)
    var out: [UInt8] = []
    for (i, d) in [a, b].enumerated() {
      let f = file.formatter(for: d, number: i + 1, count: 2)
      f.header(for: d.trace, into: &out)
      for r in d.trace.records { f.record(r, in: d.trace, into: &out) }
    }
    let text = String(decoding: out, as: UTF8.self)
    #expect(text.hasPrefix("# device 1: iOS 17, seed 1\n"))
    #expect(text.contains("\n# device 2: iOS 17, seed 1\n"))
    // Streamed, a second device's records carry its number.
    var streamed: [UInt8] = []
    let s = file.formatter(for: nil, number: 2, count: nil)
    s.record(b.trace.records[0], in: b.trace, into: &streamed)
    #expect(String(decoding: streamed, as: UTF8.self).hasPrefix("[device 2] "))
  }
}
