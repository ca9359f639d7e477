import Foundation

/// Joins the result files of the shards of a batch into one, in run order:
/// the same bytes a single unsharded batch writes.
///
/// Each part is already in run order, so this is a k-way merge that holds one
/// line per part, whatever the sizes.
public enum ResultMerge {
  /// - Parameter allowPartial: merge even when runs of the grid are missing
  ///   (a shard that did not finish, or did not run); otherwise that is an
  ///   error naming the missing runs, and no output is left behind. Parts
  ///   from different batches (their header lines differ) are refused.
  public static func merge(_ parts: [String], into output: String, allowPartial: Bool = false) throws {
    guard !parts.isEmpty else { throw BatchError("merge needs at least one part") }
    if let out = fileIdentity(output), let part = parts.first(where: { fileIdentity($0) == out }) {
      throw BatchError("\(output) is the part \(part): merging into it would overwrite it; write the merge to another file")
    }
    // The merge is written beside the output under a temporary name and
    // renamed over it only when complete: a refused or failed merge leaves
    // an existing output as it was.
    let url = URL(fileURLWithPath: output)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.deletingPathExtension().lastPathComponent).merging-\(getpid()).\(url.pathExtension)").path
    do {
      try mergeParts(parts, into: temporary, allowPartial: allowPartial)
      if fileType(output) == S_IFDIR {
        throw BatchError("\(output) is a directory: give -o the name of a result file (lifesim does not write into or remove a directory)")
      }
      if try ResultFormat(path: output) == .sqlite {
        // The old database's log and shared memory belong to the file being
        // replaced; left there, SQLite would read them as the new one's.
        for suffix in ["-wal", "-shm", "-journal"] {
          guard let type = fileType(output + suffix) else { continue }
          guard type == S_IFREG else {
            throw BatchError("\(output + suffix) exists beside \(output) and is not a regular file: give -o another name")
          }
          unlink(output + suffix)
        }
      }
      guard rename(temporary, output) == 0 else {
        throw BatchError("cannot write \(output): \(String(cString: strerror(errno)))")
      }
    } catch {
      for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) }
      throw error
    }
  }

  /// The device and inode of a file, or nil when there is none.
  private static func fileIdentity(_ path: String) -> [UInt64]? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return [UInt64(st.st_dev), UInt64(st.st_ino)]
  }

  private static func mergeParts(_ parts: [String], into output: String, allowPartial: Bool) throws {
    let format = try ResultFormat(path: output)
    for part in parts where try ResultFormat(path: part) != format {
      throw BatchError("\(part) is \(try ResultFormat(path: part).rawValue) but \(output) is \(format.rawValue): parts and output must share a format")
    }
    if format == .sqlite { return try SQLiteResults.merge(parts, into: output, allowPartial: allowPartial) }
    let readers = try parts.map { try ResultReader(path: $0) }
    // One batch: every part carries the same header (or, from before header
    // lines, none does).
    let header = readers.first?.header
    for r in readers {
      switch (header, r.header) {
      case (_?, _?), (nil, nil): break
      default: throw BatchError("\(r.path) \(r.header == nil ? "has no" : "has a") header line and \(readers[0].path) \(header == nil ? "has none" : "has one"): not parts of one batch")
      }
    }
    try refuseMixedParts(readers.map { ($0.path, $0.header) })
    // CSV: every part has the same columns; a part whose runs all failed
    // before any succeeded may have no metric columns, and gets them.
    var columns: ResultColumns?
    if format == .csv {
      for r in readers {
        guard let c = r.columns else { continue }
        if columns == nil || columns!.metrics.isEmpty { columns = columns.map { $0.params == c.params ? c : $0 } ?? c }
        if c.params == columns!.params, !c.metrics.isEmpty, !columns!.metrics.isEmpty, c.metrics != columns!.metrics {
          throw varyingMetricsError(columns!.metrics, c.metrics)
        }
        guard c.params == columns!.params, c.metrics == columns!.metrics || c.metrics.isEmpty else {
          throw BatchError("\(r.path) has the columns \(c.header.joined(separator: ",")), another part \(columns!.header.joined(separator: ",")): not parts of one batch")
        }
      }
    }
    let writer = try ResultWriter(path: output, append: false)
    if let header { try writer.write(header.line(for: format)) }
    if let columns { try writer.write(ResultEncoding.csvLine(columns.header)) }

    var heads: [(run: Int, line: String)?] = try readers.map { try next($0) }
    var last = -1
    var lastPart = ""
    var missing: [ClosedRange<Int>] = []
    while true {
      var best: Int?
      for (i, h) in heads.enumerated() {
        guard let h else { continue }
        if best == nil || h.run < heads[best!]!.run { best = i }
      }
      guard let b = best, let head = heads[b] else { break }
      if head.run == last {
        throw BatchError("run \(head.run) is in both \(lastPart) and \(readers[b].path): the parts overlap")
      }
      if head.run > last + 1 { missing.append((last + 1)...(head.run - 1)) }
      var line = head.line
      if let columns, let c = readers[b].columns, c.metrics.isEmpty, !columns.metrics.isEmpty {
        // Pad the missing metric columns, before `error`.
        var fields = ResultReader.csvFields(line)
        fields.insert(contentsOf: Array(repeating: "", count: columns.metrics.count), at: fields.count - 1)
        line = ResultEncoding.csvLine(fields)
      }
      try writer.write(line)
      last = head.run
      lastPart = readers[b].path
      heads[b] = try next(readers[b])
    }
    try writer.close()
    // Runs missing between the parts' runs, and, when the header gives the
    // grid's size, after the last (a last shard missing entirely).
    if let total = header?.runs, total > last + 1 { missing.append((last + 1)...(total - 1)) }
    if !missing.isEmpty && !allowPartial { throw missingError(missing) }
  }

  private static func next(_ r: ResultReader) throws -> (run: Int, line: String)? {
    guard let line = r.nextLine() else { return nil }
    return (try r.runIndex(of: line), line)
  }
}

/// Refuses parts of different batches, naming the part that differs: the
/// parts that agree with most others (with the first part's on a tie) are
/// the batch, and each other part is named with what differs in it.
func refuseMixedParts(_ parts: [(path: String, header: ResultHeader?)]) throws {
  var groups: [(header: ResultHeader, paths: [String])] = []
  for part in parts {
    guard let h = part.header else { continue }  // from before header lines: the rows are checked one by one
    if let g = groups.firstIndex(where: { $0.header.sameBatch(as: h) }) { groups[g].paths.append(part.path) } else {
      groups.append((h, [part.path]))
    }
  }
  guard groups.count > 1 else { return }
  var main = 0
  for g in groups.indices where groups[g].paths.count > groups[main].paths.count { main = g }
  let batch = groups[main]
  let odd = groups.indices.filter { $0 != main }.map { groups[$0] }
  let named = odd.flatMap(\.paths)
  let others = batch.paths.count == 1 ? batch.paths[0] : "the other \(batch.paths.count) parts"
  let first = odd[0]
  if first.paths.count == batch.paths.count {
    // No majority: neither is the odd one out, so both are named alike.
    throw BatchError("\(batch.paths.joined(separator: ", ")) and \(first.paths.joined(separator: ", ")) were written by "
                     + "a different experiment each: \(batch.header.summary) and \(first.header.summary) "
                     + "(\(first.header.difference(from: batch.header))); merge only the parts of one batch")
  }
  throw BatchError("\(named.joined(separator: ", ")) \(named.count == 1 ? "was" : "were") written by a different experiment "
                   + "than \(others): \(first.header.summary), not \(batch.header.summary) "
                   + "(\(first.header.difference(from: batch.header))); merge only the parts of one batch")
}
