import Foundation
import Testing

/// `lifesim explain` on inputs it cannot read as they are: each refused or
/// read another way with a message that says why, never in silence.
struct ExplainInputRefusalsCLITests {
  @Test func mixedStampKindsAreSaidAndGiveNoYearsLongWait() throws {
    let log = try script("explain-mixed-stamps.log", """
      10:00:00.000 application(_:didFinishLaunchingWithOptions:)
      2024-03-01 10:00:00.100 applicationDidBecomeActive(_:)
      2024-03-01 10:00:05.000 applicationWillResignActive(_:)

      """)
    let r = try lifesim(["explain", log])
    #expect(r.stderr.contains("line 2: its timestamp has a date, and that of line 1 is a time of day alone: "
                              + "the log is read without times, and its waits are free"), "\(r.stderr)")
    #expect(!r.stdout.contains("1709251200"), "\(r.stdout)")
  }

  @Test func scenesOnAVersionWithoutThemIsRefused() throws {
    let log = try script("explain-ios12-scenes.log", "applicationDidBecomeActive:\napplicationWillResignActive:\n")
    let r = try lifesim(["explain", log, "--ios", "12", "--scenes"])
    #expect(r.status == 2 && r.stderr.contains("--scenes needs iOS 13 or later (asked: --ios 12)"), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
    #expect(try lifesim(["explain", log, "--ios", "12", "--no-scenes"]).status == 0)
    #expect(try lifesim(["explain", log, "--ios", "13", "--scenes"]).status != 2)
  }

  @Test func aLogOverTheLimitSaysTheLimitIsLifesims() throws {
    let path = tempPath("explain-huge.log")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let h = try #require(FileHandle(forWritingAtPath: path))
    try h.truncate(atOffset: UInt64(64 << 20) + 1)
    try h.close()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let r = try lifesim(["explain", path])
    #expect(r.status == 2)
    #expect(r.stderr.contains("cannot read \(path): larger than 64 MB, lifesim's limit for a log"), "\(r.stderr)")
  }

  @Test func utf16IsRefusedWithHowToConvertIt() throws {
    let text = "applicationDidBecomeActive(_:)\napplicationWillResignActive(_:)\n"
    let path = tempPath("explain-utf16.log")
    try Data([0xFF, 0xFE] + Array(text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: URL(fileURLWithPath: path))
    let r = try lifesim(["explain", path])
    #expect(r.status == 2)
    #expect(r.stderr.contains("the log is UTF-16 (little-endian) and lifesim reads UTF-8; `iconv -f UTF-16LE -t UTF-8` converts it"),
            "\(r.stderr)")
  }

  @Test func truncatedJSONSaysItDoesNotParse() throws {
    let log = try script("explain-truncated.json", "{\"breadcrumbs\": {\"values\": [{\"category\": \"app.lifecycle\"")
    let r = try lifesim(["explain", log])
    #expect(r.status == 2)
    #expect(r.stderr.contains("JSON that does not parse (unexpected end of file during JSON parse, line 1)"), "\(r.stderr)")
  }
}
