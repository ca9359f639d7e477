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
}
