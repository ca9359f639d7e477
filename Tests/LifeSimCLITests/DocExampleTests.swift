import Foundation
import Testing

/// Every example in README.md and docs/*.md runs, as the text shows it:
///
/// - a ```lua block is a script: `lifesim run` must run it with status 0;
/// - a ```sh block is run by bash (`set -e`), each command in turn;
/// - a ```console block holds `$ command` lines, each followed by what it
///   prints: the command runs, and every line shown must be a line of its
///   output (standard output or error, in order within each), where a line
///   `…` stands for any lines left out.
///
/// They run in a scratch folder that holds `Scripts` and `bench` (links to the
/// repository's) and an empty `docs/pictures`, with the built `lifesim` first
/// on PATH, in the order the document gives them, so a later block can use a
/// file an earlier one wrote. An HTML comment on the line before a block
/// changes this, and is invisible on GitHub:
///
///     <!-- example: file first.lua -->        the block is also saved as first.lua
///     <!-- example: exit 1 -->                the status it must end with
///     <!-- example: output varies -->         a console block's output is not compared
///     <!-- example: not run: REASON -->       skipped (needs a cluster, root, a Mac, …)
///
/// Other blocks (```text, ```yaml, ```swift, plain ```) are output or
/// configuration shown to the reader, not run.
struct DocExampleTests {
  struct Block {
    var document: String
    var line: Int
    var language: String
    var body: String
    var directives: [String]

    var location: String { "\(document):\(line)" }
    func value(_ key: String) -> String? {
      directives.first { $0.hasPrefix(key + " ") }.map { String($0.dropFirst(key.count + 1)) }
    }
    var skipped: Bool { directives.contains { $0.hasPrefix("not run") } }
    var expectedStatus: Int32 { value("exit").flatMap { Int32($0) } ?? 0 }
  }

  static let runnable: Set<String> = ["lua", "sh", "bash", "console"]

  /// The fenced blocks of a Markdown text, each with the directives of the
  /// comment lines just above it.
  static func blocks(of text: String, document: String) -> [Block] {
    let lines = text.components(separatedBy: "\n")
    var result: [Block] = []
    var i = 0
    while i < lines.count {
      let line = lines[i]
      guard line.hasPrefix("```") else { i += 1; continue }
      let language = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
      var directives: [String] = []
      var above = i - 1
      while above >= 0, let d = directive(lines[above]) { directives.insert(d, at: 0); above -= 1 }
      var end = i + 1
      while end < lines.count && !lines[end].hasPrefix("```") { end += 1 }
      result.append(Block(document: document, line: i + 1, language: language,
                          body: lines[(i + 1)..<min(end, lines.count)].joined(separator: "\n") + "\n",
                          directives: directives))
      i = end + 1
    }
    return result
  }

  static func directive(_ line: String) -> String? {
    let t = line.trimmingCharacters(in: .whitespaces)
    guard t.hasPrefix("<!-- example:"), t.hasSuffix("-->") else { return nil }
    return String(t.dropFirst("<!-- example:".count).dropLast(3)).trimmingCharacters(in: .whitespaces)
  }

  /// README.md and every Markdown file under docs/.
  static let documents: [String] = {
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: repoRoot.appendingPathComponent("docs").path)) ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }()

  /// Where a document's examples run.
  static func scratch(for document: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("lifesim-doc-examples-\(UUID().uuidString)")
    let fm = FileManager.default
    try fm.createDirectory(at: dir.appendingPathComponent("docs/pictures"), withIntermediateDirectories: true)
    for name in ["Scripts", "bench"] {
      try fm.createSymbolicLink(at: dir.appendingPathComponent(name), withDestinationURL: repoRoot.appendingPathComponent(name))
    }
    return dir
  }

  static var environment: [String: String] {
    let path = binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return ["PATH": path, "NO_COLOR": "1"]
  }

  /// Whether `expected` (with `…` lines for gaps) is found in the output.
  static func missingLines(_ expected: [String], stdout: String, stderr: String) -> [String] {
    func lines(_ s: String) -> [Substring] { s.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingTrailingSpaces } }
    let out = lines(stdout), err = lines(stderr)
    var o = 0, e = 0
    var missing: [String] = []
    for want in expected.map({ Substring($0).trimmingTrailingSpaces }) where want != "…" && want != "..." && !want.isEmpty {
      if let at = out[o...].firstIndex(of: want) { o = at + 1 }
      else if let at = err[e...].firstIndex(of: want) { e = at + 1 }
      else { missing.append(String(want)) }
    }
    return missing
  }

  /// Runs one block in `dir`; the failures it found.
  static func run(_ block: Block, in dir: URL) throws -> [String] {
    var failures: [String] = []
    switch block.language {
    case "lua":
      let name = block.value("file") ?? "example-\(block.line).lua"
      try block.body.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
      let r = try runTool([binary.path, "run", name], in: dir, env: environment, timeout: 120)
      if r.status != block.expectedStatus {
        failures.append("\(block.location): `lifesim run` exited \(r.status), not \(block.expectedStatus): \(r.stderr)")
      }
    case "sh", "bash":
      let r = try runTool(["bash", "-euo", "pipefail", "-c", block.body], in: dir, env: environment, timeout: 300)
      if r.status != block.expectedStatus {
        failures.append("\(block.location): exited \(r.status), not \(block.expectedStatus): \(r.stdout)\(r.stderr)")
      }
    case "console":
      var command: String?
      var expected: [String] = []
      func finish() throws {
        guard let c = command else { return }
        let r = try runTool(["bash", "-o", "pipefail", "-c", c], in: dir, env: environment, timeout: 300)
        if r.status != block.expectedStatus {
          failures.append("\(block.location): `\(c)` exited \(r.status), not \(block.expectedStatus): \(r.stderr)")
        }
        if !block.directives.contains("output varies") {
          let missing = missingLines(expected, stdout: r.stdout, stderr: r.stderr)
          if !missing.isEmpty {
            failures.append("\(block.location): `\(c)` did not print:\n\(missing.joined(separator: "\n"))\n--- it printed:\n\(r.stdout)\(r.stderr)")
          }
        }
      }
      for line in block.body.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("$ ") {
          try finish()
          command = String(line.dropFirst(2)); expected = []
        } else {
          expected.append(String(line))
        }
      }
      try finish()
    default:
      break
    }
    return failures
  }

  @Test(arguments: DocExampleTests.documents)
  func everyExampleRuns(_ document: String) throws {
    let text = try String(contentsOf: repoRoot.appendingPathComponent(document), encoding: .utf8)
    let dir = try Self.scratch(for: document)
    defer { try? FileManager.default.removeItem(at: dir) }
    for block in Self.blocks(of: text, document: document) where Self.runnable.contains(block.language) && !block.skipped {
      for failure in try Self.run(block, in: dir) { Issue.record(Comment(rawValue: failure)) }
    }
  }

  /// Every skipped block says why; every document's runnable blocks mostly run.
  @Test func aSkippedExampleSaysWhy() throws {
    for document in Self.documents {
      let text = try String(contentsOf: repoRoot.appendingPathComponent(document), encoding: .utf8)
      for block in Self.blocks(of: text, document: document) where block.skipped {
        #expect(block.directives.contains { $0.hasPrefix("not run: ") && $0.count > "not run: ".count + 5 },
                "\(block.location): a skipped example names the reason (`<!-- example: not run: … -->`)")
      }
    }
  }

  /// The checks can fail: a wrong script, a wrong status, a line not printed.
  @Test func theChecksNoticeAWrongExample() throws {
    let dir = try Self.scratch(for: "self-test")
    defer { try? FileManager.default.removeItem(at: dir) }
    let text = """
      ```lua
      error("boom")
      ```
      <!-- example: exit 1 -->
      ```sh
      true
      ```
      ```console
      $ lifesim run Scripts/tour.lua -o tour.txt
      iOS 17, scene model
      …
      a line the tour never prints
      ```
      <!-- example: not run: a Slurm cluster -->
      ```sh
      false
      ```
      """
    let blocks = Self.blocks(of: text, document: "self-test.md")
    #expect(blocks.map(\.language) == ["lua", "sh", "console", "sh"])
    #expect(blocks[1].expectedStatus == 1 && blocks[3].skipped)
    #expect(try Self.run(blocks[0], in: dir).count == 1)
    #expect(try Self.run(blocks[1], in: dir).count == 1)
    let console = try Self.run(blocks[2], in: dir)
    #expect(console.count == 1 && console[0].contains("a line the tour never prints") && !console[0].contains("did not print:\niOS 17"),
            "\(console)")
  }
}

extension Substring {
  var trimmingTrailingSpaces: Substring {
    var s = self
    while let last = s.last, last == " " || last == "\t" || last == "\r" { s = s.dropLast() }
    return s
  }
}
