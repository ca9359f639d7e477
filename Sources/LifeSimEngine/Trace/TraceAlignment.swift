/// Aligns several sequences of lines in columns, so that equal lines share a
/// row: the core of `lifesim compare`.
///
/// The first sequence is the spine; each further one is aligned against the
/// rows built so far by a longest common subsequence, where a line matches a
/// row that already holds an equal line. On a tie, the new column's extra
/// lines come before the rows it skips.
///
///     let rows = alignColumns([["a", "b"], ["a", "c", "b"]])
///     // [["a", "a"], [nil, "c"], ["b", "b"]]
public func alignColumns(_ columns: [[String]]) -> [[String?]] {
  guard let first = columns.first else { return [] }
  var rows: [[String?]] = first.map { [$0] }
  for (c, column) in columns.enumerated().dropFirst() {
    let n = rows.count, m = column.count
    func matches(_ row: [String?], _ line: String) -> Bool { row.contains { $0 == line } }
    var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lcs[i][j] = matches(rows[i], column[j]) ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
      }
    }
    var merged: [[String?]] = []
    var i = 0, j = 0
    while i < n || j < m {
      if i < n, j < m, matches(rows[i], column[j]) {
        merged.append(rows[i] + [column[j]]); i += 1; j += 1
      } else if j < m, i == n || lcs[i][j + 1] >= lcs[i + 1][j] {
        merged.append([String?](repeating: nil, count: c) + [column[j]]); j += 1
      } else {
        merged.append(rows[i] + [nil]); i += 1
      }
    }
    rows = merged
  }
  return rows
}
