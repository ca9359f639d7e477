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
  public static func merge(_ parts: [String], into output: String, allowPartial: Bool = false,
                           warn: (String) -> Void = { _ in }) throws {
    guard !parts.isEmpty else { throw BatchError("merge needs at least one part") }
    if let out = fileIdentity(output), let part = parts.first(where: { fileIdentity($0) == out }) {
      throw BatchError("\(output) is the part \(part): merging into it would overwrite it; write the merge to another file")
    }
    let format = try ResultFormat(path: output)
    for part in parts where try ResultFormat(path: part) != format {
      throw BatchError("\(part) is \(try ResultFormat(path: part).rawValue) but \(output) is \(format.rawValue): parts and output must share a format")
    }
    // The merge takes the output's lock as a batch does (a file a batch is
    // writing is refused), writes beside it, and renames only a complete
    // merge over it: a refused or failed merge leaves an existing output as it was.
    let out = try ResultOutput(named: output, mode: .replace,
                               companions: format == .sqlite ? SQLiteResultSink.companions : [], notice: warn)
    do {
      try mergeParts(parts, into: out.path, format: format, allowPartial: allowPartial, warn: warn)
      try out.commit()
    } catch {
      out.discard()
      throw error
    }
  }

  /// The device and inode of a file, or nil when there is none.
  private static func fileIdentity(_ path: String) -> [UInt64]? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    return [UInt64(st.st_dev), UInt64(st.st_ino)]
  }

  private static func mergeParts(_ parts: [String], into output: String, format: ResultFormat, allowPartial: Bool,
                                 warn: (String) -> Void) throws {
    if format == .sqlite { return try SQLiteResults.merge(parts, into: output, allowPartial: allowPartial, warn: warn) }
    let readers = try parts.map { try ResultReader(path: $0) }
    // One batch: every part carries the same header (or, from before header
    // lines, none does).
    let first = readers.first?.header
    for r in readers {
      switch (first, r.header) {
      case (_?, _?), (nil, nil): break
      default: throw BatchError("\(r.path) \(r.header == nil ? "has no" : "has a") header line and \(readers[0].path) \(first == nil ? "has none" : "has one"): not parts of one batch")
      }
    }
    let header = try mergedHeader(readers.map { ($0.path, $0.header) }, warn: warn)
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

/// The header of a merge of `parts`: the first part's, with every file any
/// part read (each part lists the files its own runs read), after refusing
/// parts of different batches; nil when no part has a header.
func mergedHeader(_ parts: [(path: String, header: ResultHeader?)], warn: (String) -> Void) throws -> ResultHeader? {
  try refuseMixedParts(parts)
  guard var header = parts.first?.header else { return nil }
  let headers = parts.compactMap(\.header)
  if headers.contains(where: { $0.options == nil || $0.files == nil }) {
    let old = parts.filter { $0.header?.options == nil || $0.header?.files == nil }.map(\.path)
    warn("lifesim: warning: \(old.joined(separator: ", ")) \(old.count == 1 ? "does" : "do") not record the options "
         + "(--ios, --seed, --unsafe, the limits) or the modules and data files the experiment read (an older lifesim "
         + "wrote \(old.count == 1 ? "it" : "them")): merge cannot check that the parts agree on them")
    header.options = headers.allSatisfy { $0.options != nil } ? header.options : nil
    header.files = nil
  } else {
    header.files = headers.dropFirst().reduce(header.files!) { $0.union($1.files!) }
  }
  return header
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
  if first.header.sameExperiment(as: batch.header) {
    // The same experiment, run with other options or other files.
    throw BatchError("\(named.joined(separator: ", ")) and \(batch.paths.joined(separator: ", ")) ran the same experiment "
                     + "with other options or files (\(first.header.difference(from: batch.header))): their runs are not "
                     + "one batch's; merge only the parts of one batch, or run the odd ones again as the others ran")
  }
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
