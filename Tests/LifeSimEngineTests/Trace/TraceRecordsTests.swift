import Testing
@testable import LifeSimEngine

/// `TraceRecords`: copies share chunks; what one copy appends or changes the
/// other never sees.
struct TraceRecordsTests {
  private func record(_ seq: Int) -> TraceRecord { TraceRecord(time: SimTime(microseconds: Int64(seq)), seq: seq, kind: .action) }

  private func make(_ n: Int) -> TraceRecords {
    var r = TraceRecords()
    for i in 1...n { r.append(record(i)) }
    return r
  }

  @Test func indexesAndIteratesInOrder() {
    let r = make(100)
    #expect(r.count == 100)
    #expect(r.map(\.seq) == Array(1...100))
    #expect((0..<100).allSatisfy { r[$0].seq == $0 + 1 })
    #expect(r[40...].first?.seq == 41)
  }

  @Test func copiesAppendApart() {
    var a = make(10)
    var b = a
    a.append(record(11))
    b.append(record(99))
    b.append(record(100))
    #expect(a.map(\.seq) == Array(1...11))
    #expect(b.map(\.seq) == Array(1...10) + [99, 100])
    // Many copies from one, as a search makes them, each with its own tail.
    var copies = (0..<5).map { _ in b }
    for i in copies.indices { copies[i].append(record(200 + i)) }
    for i in copies.indices {
      #expect(copies[i].count == 13)
      #expect(copies[i][12].seq == 200 + i)
      #expect(Array(copies[i].prefix(12)) == Array(b))
    }
  }

  @Test func anUpdateChangesOnlyItsCopy() {
    var a = make(20)
    let b = a
    a.update(3) { $0.duration = SimTime(microseconds: 7) }
    #expect(a[3].duration == SimTime(microseconds: 7))
    #expect(b[3].duration != SimTime(microseconds: 7))
    #expect(a != b)
    var c = b
    c.append(record(21))
    c.update(20) { $0.detail = "x" }
    #expect(c[20].detail == "x")
    #expect(c[0...19].elementsEqual(b))
  }

  /// A chunk another trace's chain goes on from is not appended to, even
  /// once the trace that shared it is gone.
  @Test func aChunkOthersGoOnFromStaysAsItWas() {
    var a = make(5)
    var b: TraceRecords? = a
    b!.append(record(6))
    let c = b!
    b = nil  // c's chain still goes on from a's chunk
    a.append(record(99))
    #expect(a.map(\.seq) == [1, 2, 3, 4, 5, 99])
    #expect(c.map(\.seq) == [1, 2, 3, 4, 5, 6])
  }

  /// A search's shape: a chain of copies, one chunk per step; an update deep
  /// in it copies the chunks from there on, and the other chains keep theirs.
  @Test func anUpdateDeepInAChainCopiesItsTail() {
    var states = [make(3)]
    for step in 0..<6 {
      var next = states.last!
      next.append(record(100 + step))
      next.append(record(200 + step))
      states.append(next)
    }
    var last = states.last!
    #expect(last.count == 15)
    var want = [1, 2, 3]
    for step in 0..<6 { want += [100 + step, 200 + step] }
    let seqs: [Int] = (0..<15).map { last[$0].seq }
    #expect(seqs == want)
    last.update(1) { $0.detail = "deep" }
    last.update(6) { $0.detail = "middle" }
    #expect(last[1].detail == "deep" && last[6].detail == "middle")
    let untouched = states.allSatisfy { s in s.allSatisfy { $0.detail == nil } }
    #expect(untouched)
    last.append(record(300))
    #expect(Array(last.map(\.seq).suffix(2)) == [205, 300])
    let before: [Int] = states.last!.map(\.seq)
    #expect(Array(last.map(\.seq).prefix(15)) == before)
  }
}
