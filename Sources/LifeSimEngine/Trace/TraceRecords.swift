/// A trace's records: a collection of `TraceRecord` with the indices
/// `0..<count`, kept in chunks that copies share.
///
/// A run that is never copied appends to one chunk, which grows as an array
/// does. A copy shares every chunk; then the next record either copy makes
/// goes into a new chunk of its own, so neither copies the other's records.
/// `lifesim explore` keeps a copy of the device in each saved state and goes
/// back to one before every step: with one array, each step's first record
/// copied the whole trace (a tenth of a search).
public struct TraceRecords: RandomAccessCollection, Equatable, Sendable {
  /// Records, appended to only while one trace holds the chunk.
  fileprivate final class Chunk: @unchecked Sendable {
    // @unchecked: a chunk is written only through a uniquely held reference
    // (`append`, `update`); shared chunks are only read.
    var records: ContiguousArray<TraceRecord> = []
    init() { records.reserveCapacity(8) }
    init(_ records: ContiguousArray<TraceRecord>) { self.records = records }
  }

  private var chunks: [Chunk] = []
  /// The index of each chunk's first record.
  private var starts: [Int] = []
  public private(set) var count = 0

  public init() {}

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  /// The chunk that holds record `i`, and the record's place in it.
  private func locate(_ i: Int) -> (chunk: Int, offset: Int) {
    precondition(i >= 0 && i < count, "trace record index out of range")
    var lo = 0, hi = starts.count - 1
    while lo < hi {  // the last chunk that starts at or before i
      let mid = (lo + hi + 1) / 2
      if starts[mid] <= i { lo = mid } else { hi = mid - 1 }
    }
    return (lo, i - starts[lo])
  }

  public subscript(i: Int) -> TraceRecord {
    let (c, o) = locate(i)
    return chunks[c].records[o]
  }

  /// Changes record `i` in place (its chunk is copied first if another
  /// trace shares it).
  mutating func update(_ i: Int, _ change: (inout TraceRecord) -> Void) {
    let (c, o) = locate(i)
    if !isKnownUniquelyReferenced(&chunks[c]) { chunks[c] = Chunk(chunks[c].records) }
    change(&chunks[c].records[o])
  }

  mutating func append(_ r: TraceRecord) {
    if chunks.isEmpty || !isKnownUniquelyReferenced(&chunks[chunks.count - 1]) {
      chunks.append(Chunk())
      starts.append(count)
    }
    chunks[chunks.count - 1].records.append(r)
    count += 1
  }

  /// Walks the chunks in turn rather than looking each record up.
  public struct Iterator: IteratorProtocol {
    fileprivate var chunks: IndexingIterator<[Chunk]>
    fileprivate var current: IndexingIterator<ContiguousArray<TraceRecord>>?

    public mutating func next() -> TraceRecord? {
      while true {
        if let r = current?.next() { return r }
        guard let chunk = chunks.next() else { return nil }
        current = chunk.records.makeIterator()
      }
    }
  }

  public func makeIterator() -> Iterator { Iterator(chunks: chunks.makeIterator(), current: nil) }

  public static func == (a: TraceRecords, b: TraceRecords) -> Bool {
    a.count == b.count && a.elementsEqual(b)
  }
}
