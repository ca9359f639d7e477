import Crypto
import Foundation
import LifeSimEngine
import LifeSimLua

/// What a result file says about the batch that wrote it, before any row:
/// the experiment's name, the SHA-256 of its file (what `sha256sum` prints),
/// the lifesim version, the grid (each parameter with its values), the seeds
/// per point, the number of runs, the options that change a run (`--ios`,
/// `--seed`, `--unsafe`, the limits) and the SHA-256 of every module and
/// data file the experiment read. CSV files start with it as a comment line
/// (`# lifesim {…}`; pandas reads them with `skiprows=1`), JSONL files as a
/// first record (`{"lifesim_results":{…}}`), SQLite files as the one row of
/// the `batch` table.
///
/// `merge` and `--resume` refuse a file whose header names another
/// experiment: another name, another file hash, another grid or seeds,
/// other options, or a module or data file that differs. A file from a
/// lifesim that did not record options and files is still read; what it
/// cannot tell is said (`unrecorded`).
public struct ResultHeader: Equatable, Sendable {
  public var experiment: String
  public var sha256: String
  public var lifesim: String
  public var params: [Param]
  public var seeds: Int
  /// Runs in the whole grid (points the constraint keeps × seeds): a merge
  /// knows from it whether the last shard is missing.
  public var runs: Int
  /// The options the runs ran with (nil in files from before they were recorded).
  public var options: RunSettings?
  /// The files the experiment read besides itself, by the name it gave them,
  /// with the SHA-256 of their bytes (nil in files from before they were
  /// recorded). Those its `run` reads are added as runs read them, so a
  /// finished file lists every one.
  public var files: ReadFiles?

  public struct Param: Equatable, Sendable, Codable {
    public var name: String
    /// The values as JSON scalars (numbers, strings, booleans), in grid order.
    public var values: [JSONScalar]
  }

  public init(spec: ExperimentSpec, file: String, options: RuntimeOptions, files: [LoadedFile] = []) throws {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw BatchError("cannot read \(file) to hash it")
    }
    experiment = spec.name
    sha256 = sha256Hex(data)
    lifesim = lifesimVersion
    params = spec.params.map { p in Param(name: p.name, values: p.values.map(JSONScalar.init)) }
    seeds = spec.seeds
    runs = spec.runCount
    self.options = RunSettings(options)
    var read = ReadFiles()
    for f in files { _ = read.add(f) }
    self.files = read
  }

  /// The header as one line of JSON, keys in a fixed order.
  public var json: String {
    var out = "{\"experiment\":" + ResultEncoding.json(experiment) + ",\"sha256\":\"\(sha256)\",\"lifesim\":"
      + ResultEncoding.json(lifesim) + ",\"params\":["
    out += params.map { p in
      "{\"name\":" + ResultEncoding.json(p.name) + ",\"values\":[" + p.values.map(\.json).joined(separator: ",") + "]}"
    }.joined(separator: ",")
    out += "],\"seeds\":\(seeds),\"runs\":\(runs)"
    if let options { out += ",\"options\":" + options.json }
    if let files { out += ",\"modules\":" + ReadFiles.json(files.modules) + ",\"data\":" + ReadFiles.json(files.data) }
    return out + "}"
  }

  /// Reads `json`'s output.
  public init?(json: String) {
    struct Decoded: Decodable {
      var experiment: String
      var sha256: String
      var lifesim: String
      var params: [Param]
      var seeds: Int
      var runs: Int
      var options: RunSettings?
      var modules: [String: String]?
      var data: [String: String]?
    }
    guard let d = try? JSONDecoder().decode(Decoded.self, from: Data(json.utf8)) else { return nil }
    experiment = d.experiment
    sha256 = d.sha256
    lifesim = d.lifesim
    params = d.params
    seeds = d.seeds
    runs = d.runs
    options = d.options
    files = d.modules == nil && d.data == nil ? nil : ReadFiles(modules: d.modules ?? [:], data: d.data ?? [:])
  }

  static let csvPrefix = "# lifesim "
  static let jsonlPrefix = "{\"lifesim_results\":"

  /// The header line of a CSV or JSONL file.
  func line(for format: ResultFormat) -> String {
    format == .csv ? Self.csvPrefix + json + "\n" : Self.jsonlPrefix + json + "}\n"
  }

  /// The header in a header line, or nil if the line is not one.
  init?(line: String, format: ResultFormat) {
    let text = line.hasSuffix("\n") ? String(line.dropLast()) : line
    switch format {
    case .csv where text.hasPrefix(Self.csvPrefix):
      self.init(json: String(text.dropFirst(Self.csvPrefix.count)))
    case .jsonl where text.hasPrefix(Self.jsonlPrefix) && text.hasSuffix("}"):
      self.init(json: String(text.dropFirst(Self.jsonlPrefix.count).dropLast()))
    default:
      return nil
    }
  }

  /// Whether the two headers describe the same batch (the lifesim version may
  /// differ): the same experiment, grid and seeds, the same options when both
  /// record them, and no file read by both with different bytes. A file one
  /// of them read and the other did not is no difference: a run may read a
  /// file only at some points, and the batch adds it when a run does.
  public func sameBatch(as other: ResultHeader) -> Bool {
    experiment == other.experiment && sha256 == other.sha256 && params == other.params && seeds == other.seeds
      && runs == other.runs && (options == nil || other.options == nil || options == other.options)
      && (files == nil || other.files == nil || files!.conflicts(with: other.files!).isEmpty)
  }

  /// Whether the two headers name the same experiment, grid and seeds,
  /// whatever options and files they record.
  public func sameExperiment(as other: ResultHeader) -> Bool {
    experiment == other.experiment && sha256 == other.sha256 && params == other.params && seeds == other.seeds
      && runs == other.runs
  }

  /// What the two headers cannot compare because one of them does not record
  /// it (a file written before lifesim recorded options and files), for a
  /// warning; nil when both record everything.
  public func unrecorded(comparedWith other: ResultHeader) -> String? {
    var missing: [String] = []
    if options == nil || other.options == nil { missing.append("the options (--ios, --seed, --unsafe, the limits)") }
    if files == nil || other.files == nil { missing.append("the modules and data files the experiment read") }
    return missing.isEmpty ? nil : missing.joined(separator: " and ")
  }

  /// "experiment 'coldlaunch' (sha256 1a2b3c4d5e6f, 10 points, 12 seeds)", for messages.
  public var summary: String {
    "experiment '\(experiment)' (sha256 \(sha256.prefix(12)), \(seeds == 0 ? 0 : runs / seeds) points, \(seeds) seeds)"
  }

  /// What differs from `other`, for a refusal.
  public func difference(from other: ResultHeader) -> String {
    var parts: [String] = []
    if experiment != other.experiment { parts.append("experiment '\(experiment)', not '\(other.experiment)'") }
    if sha256 != other.sha256 { parts.append("experiment file sha256 \(sha256.prefix(12)), not \(other.sha256.prefix(12))") }
    if params != other.params { parts.append("another grid") }
    if seeds != other.seeds { parts.append("\(seeds) seeds, not \(other.seeds)") }
    if runs != other.runs && params == other.params && seeds == other.seeds { parts.append("\(runs) runs, not \(other.runs)") }
    if let a = options, let b = other.options, a != b { parts.append(a.difference(from: b)) }
    if let a = files, let b = other.files { parts += a.conflicts(with: b) }
    return parts.joined(separator: ", ")
  }
}

/// The SHA-256 of bytes in hex, as `sha256sum` prints it.
func sha256Hex<D: DataProtocol>(_ data: D) -> String {
  SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}

/// The options of a batch that change what its runs give, as a result
/// file's header records them: the flags of `lifesim batch` (`CommonOptions`).
public struct RunSettings: Equatable, Sendable, Codable {
  public var ios: Int
  public var seed: UInt64
  public var unsafe: Bool
  /// Bytes.
  public var maxMemory: Int
  public var maxInstructions: Int64
  public var maxHandlerInstructions: Int64
  /// Seconds.
  public var maxTime: Double
  public var maxEventsPerInstant: Int
  /// Bytes.
  public var maxTraceMemory: Int

  enum CodingKeys: String, CodingKey {
    case ios, seed, unsafe
    case maxMemory = "max_memory"
    case maxInstructions = "max_instructions"
    case maxHandlerInstructions = "max_handler_instructions"
    case maxTime = "max_time"
    case maxEventsPerInstant = "max_events_per_instant"
    case maxTraceMemory = "max_trace_memory"
  }

  public init(_ o: RuntimeOptions) {
    ios = o.ios
    seed = o.seed
    unsafe = o.unsafe
    maxMemory = o.memoryLimit
    maxInstructions = o.maxInstructions
    maxHandlerInstructions = o.maxHandlerInstructions
    maxTime = o.maxTime
    maxEventsPerInstant = o.maxEventsPerInstant
    maxTraceMemory = o.maxTraceMemory
  }

  /// Keys in a fixed order; the memory limits in bytes, the time in seconds.
  var json: String {
    "{\"ios\":\(ios),\"seed\":\(seed),\"unsafe\":\(unsafe),\"max_memory\":\(maxMemory),\"max_instructions\":\(maxInstructions),"
      + "\"max_handler_instructions\":\(maxHandlerInstructions),\"max_time\":\(ResultEncoding.jsonNumber(maxTime)),"
      + "\"max_events_per_instant\":\(maxEventsPerInstant),\"max_trace_memory\":\(maxTraceMemory)}"
  }

  /// Each option as the flag that sets it, with this value.
  var flags: [(flag: String, value: String)] {
    func mb(_ bytes: Int) -> String { bytes % (1 << 20) == 0 ? String(bytes >> 20) : "\(formatNumber(Double(bytes) / 1_048_576))" }
    return [("--ios", String(ios)), ("--seed", String(seed)), ("--unsafe", unsafe ? "on" : "off"),
            ("--max-memory", mb(maxMemory)), ("--max-instructions", String(maxInstructions)),
            ("--max-handler-instructions", String(maxHandlerInstructions)), ("--max-time", formatNumber(maxTime)),
            ("--max-events-per-instant", String(maxEventsPerInstant)), ("--max-trace-memory", mb(maxTraceMemory))]
  }

  /// "--ios 12, not 17; --unsafe on, not off": what differs from `other`.
  func difference(from other: RunSettings) -> String {
    zip(flags, other.flags).filter { $0.0.value != $0.1.value }
      .map { "\($0.0.flag) \($0.0.value), not \($0.1.value)" }.joined(separator: ", ")
  }
}

/// The modules and data files an experiment read, each by the name it gave
/// (`require "lib.util"`, `read_csv("usage.csv")`), with the SHA-256 of its bytes.
public struct ReadFiles: Equatable, Sendable {
  public var modules: [String: String] = [:]
  public var data: [String: String] = [:]

  public init(modules: [String: String] = [:], data: [String: String] = [:]) {
    self.modules = modules
    self.data = data
  }

  /// Adds a file read; returns the digest already recorded for it when that
  /// differs (the file changed), else nil.
  mutating func add(_ f: LoadedFile) -> String? {
    guard let digest = f.digest else { return nil }
    switch f.kind {
    case .module:
      if let had = modules[f.name] { return had == digest ? nil : had }
      modules[f.name] = digest
    case .data:
      if let had = data[f.name] { return had == digest ? nil : had }
      data[f.name] = digest
    }
    return nil
  }

  /// Every file of both, for a merge (`conflicts` must be empty).
  func union(_ other: ReadFiles) -> ReadFiles {
    ReadFiles(modules: modules.merging(other.modules) { a, _ in a }, data: data.merging(other.data) { a, _ in a })
  }

  /// The files both read with different bytes, said for a refusal.
  func conflicts(with other: ReadFiles) -> [String] {
    var out: [String] = []
    for (name, digest) in modules.sorted(by: { $0.key < $1.key }) {
      if let o = other.modules[name], o != digest { out.append("module '\(name)' sha256 \(digest.prefix(12)), not \(o.prefix(12))") }
    }
    for (name, digest) in data.sorted(by: { $0.key < $1.key }) {
      if let o = other.data[name], o != digest { out.append("data file '\(name)' sha256 \(digest.prefix(12)), not \(o.prefix(12))") }
    }
    return out
  }

  /// Every file, as (kind, name, digest), sorted.
  var all: [(kind: LoadedFile.Kind, name: String, digest: String)] {
    modules.sorted { $0.key < $1.key }.map { (.module, $0.key, $0.value) }
      + data.sorted { $0.key < $1.key }.map { (.data, $0.key, $0.value) }
  }

  /// A JSON object with sorted keys.
  static func json(_ d: [String: String]) -> String {
    "{" + d.keys.sorted().map { ResultEncoding.json($0) + ":" + ResultEncoding.json(d[$0]!) }.joined(separator: ",") + "}"
  }
}

/// A JSON scalar: how parameter values and metrics appear in a header and
/// in JSONL rows.
public enum JSONScalar: Equatable, Sendable, Codable {
  case bool(Bool), number(Double), text(String), null

  init(_ v: ParamValue) {
    switch v {
    case .number(let x): self = .number(x)
    case .text(let s): self = .text(s)
    case .bool(let b): self = .bool(b)
    }
  }

  public init(from decoder: Decoder) throws {
    let c = try decoder.singleValueContainer()
    if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) }
    else if let x = try? c.decode(Double.self) { self = .number(x) } else { self = .text(try c.decode(String.self)) }
  }

  public func encode(to encoder: Encoder) throws {
    var c = encoder.singleValueContainer()
    switch self {
    case .bool(let b): try c.encode(b)
    case .number(let x): try c.encode(x)
    case .text(let s): try c.encode(s)
    case .null: try c.encodeNil()
    }
  }

  var json: String {
    switch self {
    case .bool(let b): return b ? "true" : "false"
    case .number(let x): return ResultEncoding.jsonNumber(x)
    case .text(let s): return ResultEncoding.json(s)
    case .null: return "null"
    }
  }

  /// As result files and tables write it.
  public var text: String {
    switch self {
    case .bool(let b): return b ? "true" : "false"
    case .number(let x): return ResultEncoding.number(x)
    case .text(let s): return s
    case .null: return "nan"
    }
  }
}

// MARK: - Names in result files

/// The columns every result file has besides the parameters and metrics.
let reservedColumns: Set<String> = ["run", "seed", "status", "error"]

/// What makes `name` unfit as a column of a result file (nil: nothing): a
/// control character (NUL included), which would break the line a row is,
/// the table a summary prints or an SQL statement, or the name of a column
/// every file has, which the `results` view and a reader by name would take
/// for that column.
func columnNameProblem(_ name: String) -> String? {
  if name.isEmpty { return "is empty" }
  for (i, b) in name.utf8.enumerated() where b < 0x20 || b == 0x7F {
    return "holds a control character (byte \(i + 1) is 0x\(String(b, radix: 16, uppercase: true))): a result file has one line per run"
  }
  if reservedColumns.contains(name) {
    return "is the name of a column every result file has (run, seed, status, error)"
  }
  return nil
}

/// The refusal of runs whose metric names differ, in a table (CSV, SQLite):
/// the same words from an unsharded batch and from a merge of its shards.
func varyingMetricsError(_ a: [String], _ b: [String]) -> BatchError {
  let lists = [a, b].map { $0.map(shownName).joined(separator: ", ") }.sorted()
  return BatchError("runs return different metrics (\(lists[0]) / \(lists[1])): a .csv or .sqlite result has one "
                    + "column per metric, so every run must return the same ones; write .jsonl to keep runs with different metrics")
}
