/// A trace's records: a collection of `TraceRecord` with the indices
/// `0..<count`, kept in a chain of chunks that copies share.
///
/// A run that is never copied appends to one chunk, which grows as an array
/// does. A copy shares every chunk; then the next record either copy makes
/// goes into a new chunk of its own, linked to the shared one, so neither
/// copies the other's records. `lifesim explore` keeps a copy of the device
/// in each saved state and goes back to one before every step: with one
/// array, each step's first record copied the whole trace (a tenth of a
/// search); with an array of chunks, it copied that array, and the array of
/// where each chunk starts. Now it makes one chunk.
public struct TraceRecords: RandomAccessCollection, Equatable, Sendable {
  /// Records from index `start` on, after those of `previous`. Appended to
  /// only while one trace holds it and no chunk follows it.
  fileprivate final class Chunk: @unchecked Sendable {
    // @unchecked: a chunk is written only through a uniquely held reference
    // (`append`, `update`); shared chunks are only read.
    let previous: Chunk?
    let start: Int
    @exclusivity(unchecked) var records: ContiguousArray<TraceRecord>

    init(previous: Chunk?, start: Int) {
      self.previous = previous
      self.start = start
      records = []
      // A step of a search makes about a dozen records.
      records.reserveCapacity(16)
    }

    init(previous: Chunk?, start: Int, records: ContiguousArray<TraceRecord>) {
      self.previous = previous
      self.start = start
      self.records = records
    }
  }

  private var last: Chunk?
  public private(set) var count = 0

  public init() {}

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  /// The chunk that holds record `i`: from the last back, so the records a
  /// run reads most (its latest) are found first.
  private func chunk(holding i: Int) -> Chunk {
    precondition(i >= 0 && i < count, "trace record index out of range")
    var c = last!
    while i < c.start { c = c.previous! }
    return c
  }

  public subscript(i: Int) -> TraceRecord {
    let c = chunk(holding: i)
    return c.records[i - c.start]
  }

  /// Changes record `i` in place. When another trace shares its chunk or a
  /// later one (rare: a record changes in the step that made it), the chunks
  /// from it to the last are copied first.
  mutating func update(_ i: Int, _ change: (inout TraceRecord) -> Void) {
    let c = chunk(holding: i)
    if c === last, isKnownUniquelyReferenced(&last) {
      change(&last!.records[i - c.start])
      return
    }
    var tail: [Chunk] = []
    var k = last!
    while true {
      tail.append(k)
      if k === c { break }
      k = k.previous!
    }
    var copy = c.previous
    for old in tail.reversed() { copy = Chunk(previous: copy, start: old.start, records: old.records) }
    last = copy
    let mine = chunk(holding: i)
    change(&mine.records[i - mine.start])
  }

  // Consuming: the record moves into the chunk, where a borrowed one would
  // be copied (retaining its strings) and the caller's copy then destroyed.
  mutating func append(_ r: consuming TraceRecord) {
    if last == nil || !isKnownUniquelyReferenced(&last) {
      last = Chunk(previous: last, start: count)
    }
    last!.records.append(r)
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

  public func makeIterator() -> Iterator {
    var chain: [Chunk] = []
    var c = last
    while let k = c {
      chain.append(k)
      c = k.previous
    }
    chain.reverse()
    return Iterator(chunks: chain.makeIterator(), current: nil)
  }

  public static func == (a: TraceRecords, b: TraceRecords) -> Bool {
    a.count == b.count && a.elementsEqual(b)
  }
}
