/// Sends a trace's records somewhere as they are made, through a formatter,
/// in chunks: the engine does no I/O itself, `sink` does (the CLI writes to a
/// file or standard output). Memory stays flat: one buffer, reused.
///
///     let stream = TraceStream(formatter: TraceWriter(format: .jsonl)) { bytes in
///       bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, stdout) }
///     }
///     device.stream(to: stream, keepingRecords: false)
///     try device.advance(by: .seconds(86_400))
///     device.finishStream()
public final class TraceStream: @unchecked Sendable {
  // One device's thread uses a stream; it is a class so that the device's
  // `Trace` value can hold it.
  // Stored properties are @exclusivity(unchecked), as `Device`'s are: `write`
  // runs once a record, and a dynamic check per access was a twentieth of it.
  public let formatter: TraceFormatter
  private let sink: ([UInt8]) -> Void
  @exclusivity(unchecked) private var buffer: [UInt8] = []
  @exclusivity(unchecked) private var started = false
  private let chunkSize: Int

  public init(formatter: TraceFormatter, chunkSize: Int = 1 << 16, sink: @escaping ([UInt8]) -> Void) {
    self.formatter = formatter
    self.sink = sink
    self.chunkSize = chunkSize
    buffer.reserveCapacity(chunkSize + 1024)
  }

  func write(_ r: TraceRecord, in trace: Trace) {
    if !started {
      started = true
      formatter.header(for: trace, into: &buffer)
    }
    formatter.record(r, in: trace, into: &buffer)
    if buffer.count >= chunkSize { flush() }
  }

  /// Writes the footer (and the header, for a trace with no records) and what is buffered.
  public func finish(_ trace: Trace) {
    if !started {
      started = true
      formatter.header(for: trace, into: &buffer)
    }
    formatter.footer(for: trace, into: &buffer)
    flush()
  }

  /// Hands what is buffered to the sink.
  public func flush() {
    guard !buffer.isEmpty else { return }
    sink(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}

extension Device {
  /// Streams the records made from now on; without `keepingRecords`, the device
  /// keeps none, so its trace answers no queries.
  public func stream(to stream: TraceStream, keepingRecords: Bool) {
    trace.stream = stream
    trace.keepsRecords = keepingRecords
  }

  /// Ends the stream: footer and buffered records go to the sink.
  public func finishStream() {
    trace.stream?.finish(trace)
  }
}
