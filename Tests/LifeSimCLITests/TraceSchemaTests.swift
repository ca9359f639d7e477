import Foundation
import LifeSimEngine
import Testing

/// docs/trace.schema.json describes every JSONL record. It
/// is checked two ways: every record of every script under `Scripts/` is
/// validated against it by a real JSON Schema validator (Python's
/// `jsonschema`, which `./dev.sh` and `.ci/run` install), and its enumerations
/// are compared with the engine's own names, so neither can drift.
struct TraceSchemaTests {
  static let schemaURL = repoRoot.appendingPathComponent("docs/trace.schema.json")

  static func schema() throws -> [String: Any] {
    let data = try Data(contentsOf: schemaURL)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func enumeration(_ property: String, in schema: [String: Any]) throws -> Set<String> {
    let properties = try #require(schema["properties"] as? [String: Any])
    let p = try #require(properties[property] as? [String: Any], "no property \(property)")
    return Set(try #require(p["enum"] as? [String], "\(property) has no enum"))
  }

  /// Runs a Python program with arguments; its exit status and output.
  static func python(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", program] + arguments
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    try p.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, output)
  }

  @Test func enumerationsAreTheEngines() throws {
    let s = try Self.schema()
    #expect(try Self.enumeration("kind", in: s) == Set(RecordKind.allCases.map(\.description)))
    #expect(try Self.enumeration("action", in: s) == Set(DeviceAction.allCases.map(\.description)))
    #expect(try Self.enumeration("reason", in: s) == Set(KillReason.allCases.map(\.description)))
    let states = Set(AppState.allCases.map(\.description)).union(SceneState.allCases.map(\.description))
    #expect(try Self.enumeration("from", in: s) == states)
    #expect(try Self.enumeration("to", in: s) == states)
    #expect(try Self.enumeration("level", in: s) == Set(MemoryLevel.allCases.map(\.description)))
    #expect(try Self.enumeration("watchdog", in: s) == Set(WatchdogKind.allCases.map(\.description)))
  }

  /// Every record of every shipped script, in one file, through the validator.
  @Test func everyScriptRecordMatchesTheSchema() throws {
    let scripts = try #require(FileManager.default.enumerator(atPath: repoRoot.appendingPathComponent("Scripts").path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".lua") }.sorted()
    #expect(scripts.count > 50)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-schema-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var all = Data()
    var records = 0
    for name in scripts {
      let out = dir.appendingPathComponent("trace.jsonl")
      // Scripts under Scripts/bad fail on purpose; their traces are written all the same.
      _ = try lifesim(["run", "Scripts/" + name, "--format", "jsonl", "-o", out.path])
      let data = (try? Data(contentsOf: out)) ?? Data()
      records += data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
      all.append(data)
      try? FileManager.default.removeItem(at: out)
    }
    #expect(records > 10_000, "only \(records) records")
    let file = dir.appendingPathComponent("all.jsonl")
    try all.write(to: file)
    let check = """
      import json, sys
      try:
          import jsonschema
      except ImportError:
          sys.exit("python3 has no jsonschema module: pip install jsonschema (./dev.sh does)")
      validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
      jsonschema.Draft202012Validator.check_schema(validator.schema)
      bad = 0
      for number, line in enumerate(open(sys.argv[2]), 1):
          for error in validator.iter_errors(json.loads(line)):
              bad += 1
              if bad <= 10:
                  print(f"record {number}: {error.message}: {line.strip()[:160]}")
      print(f"{number} records, {bad} errors")
      sys.exit(1 if bad else 0)
      """
    let (status, output) = try Self.python(check, [Self.schemaURL.path, file.path])
    #expect(status == 0, "\(output)")
    #expect(output.contains("\(records) records, 0 errors"), "\(output)")
  }

  /// The schema rejects what it should: it is not a check that cannot fail.
  @Test func theSchemaRejectsMalformedRecords() throws {
    let bad = [
      #"{"t":1,"seq":1,"kind":"memory","detail":"warning 900/1000 MB"}"#,  // numbers missing
      #"{"t":1,"seq":1,"kind":"callback","callback":"x"}"#,  // handled missing
      #"{"t":1,"seq":0,"kind":"log","detail":"x"}"#,  // seq from 1
      #"{"t":1,"seq":1,"kind":"nonsense"}"#,
      #"{"t":1,"seq":1,"kind":"log","detail":"x","extra":1}"#,
      #"{"t":1,"seq":1,"kind":"kill","app":"a","reason":"watchdog"}"#,  // which watchdog, and its code
    ]
    let check = """
      import json, sys, jsonschema
      v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
      accepted = [line for line in sys.argv[2:] if v.is_valid(json.loads(line))]
      print("accepted:", accepted)
      sys.exit(1 if accepted else 0)
      """
    let (status, output) = try Self.python(check, [Self.schemaURL.path] + bad)
    #expect(status == 0, "\(output)")
  }
}
