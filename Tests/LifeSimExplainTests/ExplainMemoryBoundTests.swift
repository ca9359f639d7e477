import Foundation
import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// What explain's search keeps is bounded as explore bounds the states it
/// saves (`--max-saved-memory`): a long log's search stops there and says
/// so, instead of growing with the log (a 20,000-line log took 1.4 GB).
struct ExplainMemoryBoundTests {
  static func options(maxSavedMB: Int, unlogged: Int = 3) -> ExplainOptions {
    var o = ExplainOptions()
    o.alternatives = 0
    o.maxUnlogged = unlogged
    o.maxSavedBytes = maxSavedMB << 20
    return o
  }

  @Test func theDefaultIsExploresBound() {
    #expect(ExplainOptions().maxSavedBytes == 1024 << 20)
  }

  /// A 2,000-line log's search keeps about 120 MB; bounded at 4 MB it stops
  /// there, well before its states, and names the bound and its flag.
  @Test func aLongLogsSearchStopsAtTheBoundAndSaysSo() throws {
    let log = try LogReader.read(ExplainLongLogTests.lines(2_000))
    let options = Self.options(maxSavedMB: 4)
    let result = try ExplainSearch(log: log, options: options).run()
    #expect(result.stop == .savedMemory(4) && result.explanations.isEmpty)
    // What it kept (about 500 bytes a state, and the device states) fits in the bound.
    #expect(result.states > 500 && result.states < (4 << 20) / 400, "\(result.states) states")
    let text = ExplainReport(log: log, options: options, result: result).text
    #expect(text.contains("not explained within --max-saved-memory 4 MB: what the search keeps would hold more "
                          + "(a larger --max-saved-memory searches further"), "\(text)")
    #expect(text.contains("first line not reached within the bound"), "\(text)")
  }

  /// The answer: the search stopped at the bound is made again with no
  /// unlogged step, and the note on standard error names the bound.
  @Test func theAnswerNotesTheBoundAndNarrowsTheSearch() throws {
    let log = try LogReader.read(ExplainLongLogTests.lines(400))
    let a = try ExplainSearch.answer(log: log, options: Self.options(maxSavedMB: 1))
    #expect(a.stoppedAtMemory == 1 && a.askedBound == "--max-saved-memory 1 MB" && a.narrowed == 0)
    let notes = ExplainReport.notes(a)
    #expect(notes.first?.hasPrefix("the search stopped at --max-saved-memory 1 MB") == true, "\(notes)")
    #expect(notes.first?.hasSuffix("a larger --max-saved-memory searches further") == true, "\(notes)")
    #expect(notes.contains { $0.hasPrefix("the search with --max-unlogged 3 stopped at --max-saved-memory 1 MB") }, "\(notes)")
  }

  /// A saved device state counts what it holds: a state with more view
  /// controllers counts more.
  @Test func aDeviceStateCountsItsObjects() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.a", root: ObjectSpec(className: "Root", creation: .code)))
    try dev.launch(app)
    let before = dev.saveState().approximateBytes
    for i in 0..<10 { _ = try dev.push(ObjectSpec(className: "Screen\(i)", creation: .code), app: app) }
    #expect(dev.saveState().approximateBytes >= before + 10 * MemoryLayout<ViewController>.stride)
  }
}
