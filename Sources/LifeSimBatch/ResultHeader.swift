import Crypto
import Foundation
import LifeSimEngine
import LifeSimLua

/// What a result file says about the batch that wrote it, before any row:
/// the experiment's name, the SHA-256 of its file (what `sha256sum` prints),
/// the lifesim version, the grid (each parameter with its values), the seeds
/// per point and the number of runs. CSV files start with it as a comment
/// line (`# lifesim {…}`; pandas reads them with `skiprows=1`), JSONL files
/// as a first record (`{"lifesim_results":{…}}`), SQLite files as the one row
/// of the `batch` table.
///
/// `merge` and `--resume` refuse a file whose header names another
/// experiment: another name, another file hash, another grid or seeds.
public struct ResultHeader: Equatable, Sendable {
  public var experiment: String
  public var sha256: String
  public var lifesim: String
  public var params: [Param]
  public var seeds: Int
  /// Runs in the whole grid (points the constraint keeps × seeds): a merge
  /// knows from it whether the last shard is missing.
  public var runs: Int

  public struct Param: Equatable, Sendable, Codable {
    public var name: String
    /// The values as JSON scalars (numbers, strings, booleans), in grid order.
    public var values: [JSONScalar]
  }

  public init(spec: ExperimentSpec, file: String) throws {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw BatchError("cannot read \(file) to hash it")
    }
    experiment = spec.name
    sha256 = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    lifesim = lifesimVersion
    params = spec.params.map { p in Param(name: p.name, values: p.values.map(JSONScalar.init)) }
    seeds = spec.seeds
    runs = spec.runCount
  }

  /// The header as one line of JSON, keys in a fixed order.
  public var json: String {
    var out = "{\"experiment\":" + ResultEncoding.json(experiment) + ",\"sha256\":\"\(sha256)\",\"lifesim\":"
      + ResultEncoding.json(lifesim) + ",\"params\":["
    out += params.map { p in
      "{\"name\":" + ResultEncoding.json(p.name) + ",\"values\":[" + p.values.map(\.json).joined(separator: ",") + "]}"
    }.joined(separator: ",")
    return out + "],\"seeds\":\(seeds),\"runs\":\(runs)}"
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
    }
    guard let d = try? JSONDecoder().decode(Decoded.self, from: Data(json.utf8)) else { return nil }
    experiment = d.experiment
    sha256 = d.sha256
    lifesim = d.lifesim
    params = d.params
    seeds = d.seeds
    runs = d.runs
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

  /// Whether the two headers describe the same batch (the lifesim version may differ).
  public func sameBatch(as other: ResultHeader) -> Bool {
    experiment == other.experiment && sha256 == other.sha256 && params == other.params && seeds == other.seeds
      && runs == other.runs
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
    return parts.joined(separator: ", ")
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
