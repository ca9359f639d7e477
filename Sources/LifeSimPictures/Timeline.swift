/// `lifesim timeline`: a trace as swimlanes over virtual time, as an SVG.
///
/// One lane per app (its process states) and, for an app with several
/// scenes, one per scene (its scene states); markers for callbacks, kills,
/// data losses, expirations and memory warnings, callbacks named beside their
/// mark where there is room; a memory band with the warning and jetsam
/// levels; a time axis.
/// Two passes over the records, each in bounded memory: the first finds the
/// range, the lanes and where nothing happens for long (those stretches are
/// compressed and shaded, with the gap written); the second draws each lane
/// as it reads it, keeping only the runs of columns where one state holds
/// (the records of a device come in time order), so that memory grows with
/// what the picture shows, never with the trace's length or the picture's
/// width times its lanes. Markers closer than a few pixels are drawn as one,
/// with a count per kind ("×3") and the first selectors in its tooltip.
public struct TimelineOptions: Sendable {
  /// The range shown, in virtual seconds (default: the whole trace).
  public var from: Double?
  public var to: Double?
  /// The width of the drawing area for time, in pixels: with the lane names
  /// and the margins the picture fits a 1,400-pixel window.
  public var width = 1050.0
  public var title = "lifesim timeline"
  /// What a lane of device N is called beside its number ("iOS 17").
  public var deviceNames: [Int: String] = [:]

  public init() {}
}

public final class Timeline {
  let options: TimelineOptions

  // MARK: Pass 1

  private var tMin = Int64.max, tMax = Int64.min
  private var count = 0
  private struct LaneKey: Hashable {
    var device: Int
    var app: String
    var scene: Int?
  }
  private var laneIndex: [LaneKey: Int] = [:]
  private var laneKeys: [LaneKey] = []
  private var laneActive: [Bool] = []
  private var laneStateAtStart: [String?] = []
  private var devices = Set<Int>()
  /// Per app lane: the scenes seen. An app with one scene gets no scene lane
  /// (it would repeat the app's), and its scene's callbacks go on the app's.
  private var scenesOf: [Int: Set<Int>] = [:]
  /// Per lane: the lane its markers go to instead, and whether its states are dropped.
  private var redirect: [Int: Int] = [:]
  private static let bins = 4096
  private var histogram = [Int32](repeating: 0, count: Timeline.bins)
  private var scanned = false

  // MARK: Pass 2

  private struct Segment {
    var start: Int64
    var end: Int64
  }
  /// Compressed stretches of nothing, in time order.
  private var gaps: [Segment] = []
  private var columns = 0
  private static let states = ["active", "inactive", "background", "suspended",
                               "foregroundActive", "foregroundInactive"]
  /// A lane's band: the column being filled, the time spent in each drawn
  /// state there, and the runs of columns finished, each drawn in the state
  /// that holds most of every column in it.
  private struct Band {
    var column = -1
    /// The last column finished.
    var finished = -1
    var open: (state: Int, start: Int)?
    var runs: [(state: Int, start: Int, end: Int)] = []
  }
  private var bands: [Band] = []
  /// Per lane, `states.count` at a time: the time spent in each state in the
  /// lane's column being filled.
  private var columnTime: [Float] = []
  private var current: [(state: Int?, since: Int64)] = []
  struct Bucket {
    var counts = [Int32](repeating: 0, count: MarkerKind.allCases.count)
    var names: [String] = []
    /// Its callbacks' short names, each once in the order they first came
    /// (up to `Timeline.calloutLimit` names), and how many times each came:
    /// to write beside the mark or in the list under the picture.
    var callbacks: [String] = []
    var callbackCounts: [Int32] = []

    mutating func addCallback(_ name: String, count: Int32 = 1) {
      if let i = callbacks.firstIndex(of: name) {
        callbackCounts[i] += count
      } else if callbacks.count < Timeline.calloutLimit {
        callbacks.append(name)
        callbackCounts.append(count)
      }
    }

    /// The callbacks beyond the names kept.
    var unnamedCallbacks: Int { Int(counts[MarkerKind.callback.rawValue]) - Int(callbackCounts.reduce(0, +)) }
    /// When its first event happened.
    var time = Int64.max
  }
  /// A mark whose callbacks did not fit beside it, listed under the picture.
  struct Callout {
    var time: Int64
    var lane: String
    var names: [String]
    /// Callbacks past the names kept (`calloutLimit` different ones).
    var unnamed: Int
  }
  struct Callouts {
    var list: [Callout] = []
    /// Marks past `calloutsShown`, not listed.
    var unlisted = 0
    /// Where the last number written above a mark of the lane ends.
    var aboveRight = -Double.infinity
  }
  /// How many different callbacks of one mark the picture names (a mark of
  /// one kind of view controller's appearance has a handful, however many).
  static let calloutLimit = 64
  /// How many marks get a numbered callout; past it, the list says how to zoom.
  static let calloutsShown = 100
  enum MarkerKind: Int, CaseIterable {
    case callback, kill, dataLoss, expire, memoryWarning
  }
  /// Per lane: marker buckets by bucket index.
  private var markers: [[Int: Bucket]] = []
  /// Per app lane, the stretches its main thread was busy with a handler's
  /// work (reference §3.8), in x, joined where they touch: at most one per
  /// column, however long the trace.
  private struct BusyStretch {
    var x0: Double, x1: Double
    var start: Int64, end: Int64
    var first: String
    var handlers = 1
  }
  private var busy: [[BusyStretch]] = []
  /// Per column: the most memory in use, and the last value (-1: no change there).
  private var memoryMax: [Double] = []
  private var memoryLast: [Double] = []
  private var memoryBefore: Double?
  private var memoryDevice: Int?
  private var memoryLimit: Double?
  private var warningMB: Double?
  private var jetsamMB: Double?
  private var memoryEvents: [Int: Bucket] = [:]
  private static let bucketWidth = 6.0

  public init(options: TimelineOptions = TimelineOptions()) {
    self.options = options
  }

  var rangeStart: Int64 { options.from.map { Int64(($0 * 1_000_000).rounded()) } ?? Int64.min }
  var rangeEnd: Int64 { options.to.map { Int64(($0 * 1_000_000).rounded()) } ?? Int64.max }

  private var lastLane: (key: LaneKey, index: Int)?

  private func lane(_ e: TimelineEvent) -> Int? {
    guard let app = e.app else { return nil }
    let isSceneLane = e.scene != nil && (e.kind == .state || e.kind == .callback)
    let key = LaneKey(device: e.device, app: app, scene: isSceneLane ? e.scene : nil)
    // Records of one app come in runs: the last lane first, then the table.
    if let last = lastLane, last.key == key { return last.index }
    if let i = laneIndex[key] {
      lastLane = (key, i)
      return i
    }
    if key.scene != nil { _ = lane(TimelineEvent.appOnly(e)) }  // the app's lane comes first
    let i = laneKeys.count
    laneIndex[key] = i
    laneKeys.append(key)
    laneActive.append(false)
    laneStateAtStart.append(nil)
    return i
  }

  /// Pass 1: every record, in order.
  public func scan(_ e: TimelineEvent) {
    devices.insert(e.device)
    let l = lane(e)
    if let scene = e.scene, let l, laneKeys[l].scene != nil {
      let app = laneIndex[LaneKey(device: e.device, app: laneKeys[l].app, scene: nil)]!
      scenesOf[app, default: []].insert(scene)
    }
    if e.time < rangeStart {
      if let l, e.kind == .state { laneStateAtStart[l] = e.to }
      // A handler that began before the range and works into it is drawn from the range's start.
      if let l, e.duration > 0, e.time + e.duration > rangeStart { laneActive[l] = true }
      return
    }
    guard e.time <= rangeEnd else { return }
    tMin = min(tMin, e.time)
    // A record's duration widens the range drawn, but not past `--to`.
    tMax = max(tMax, min(e.time + e.duration, max(rangeEnd, e.time)))
    count += 1
    if let l { laneActive[l] = true }
  }

  /// The range drawn: the records' own, widened to `--from`/`--to`. Fixed
  /// once, before the histogram is filled, so that its bins and the drawing
  /// speak of the same times.
  private var rangeFixed = false
  private func fixRange() {
    guard !rangeFixed else { return }
    rangeFixed = true
    if let from = options.from { tMin = min(tMin, Int64((from * 1_000_000).rounded())) }
    if let to = options.to, tMax != Int64.min { tMax = max(tMax, Int64((to * 1_000_000).rounded())) }
    if count == 0 || tMax <= tMin {
      tMax = max(tMin == Int64.max ? 1_000_000 : tMin + 1_000_000, tMax)
      if tMin == Int64.max { tMin = 0 }
    }
  }

  /// Pass 1, again: the histogram needs the range, so it takes a second look.
  public func scanActivity(_ e: TimelineEvent) {
    fixRange()
    guard e.time >= rangeStart, e.time <= rangeEnd, tMax > tMin else { return }
    let span = Double(tMax - tMin)
    let b = min(Timeline.bins - 1, Int(Double(e.time - tMin) / span * Double(Timeline.bins)))
    histogram[b] &+= 1
    if e.duration > 0 {
      let end = min(Timeline.bins - 1, Int(Double(e.time + e.duration - tMin) / span * Double(Timeline.bins)))
      if end > b { for k in (b + 1)...end { histogram[k] &+= 1 } }
    }
  }

  /// Between the passes: the compressed stretches and the per-column arrays.
  public func prepare() {
    scanned = true
    fixRange()
    for (l, key) in laneKeys.enumerated() where key.scene != nil {
      let app = laneIndex[LaneKey(device: key.device, app: key.app, scene: nil)]!
      if (scenesOf[app]?.count ?? 0) <= 1 {
        redirect[l] = app
        laneActive[l] = false
      }
    }
    // Idle stretches: runs of empty bins of at least a tenth of the span and 10 s.
    let span = Double(tMax - tMin)
    let binTime = span / Double(Timeline.bins)
    let minimum = max(span / 10, 10_000_000)
    var k = 0
    while k < Timeline.bins {
      guard histogram[k] == 0 else { k += 1; continue }
      var j = k
      while j < Timeline.bins, histogram[j] == 0 { j += 1 }
      // Keep one bin of context on each side.
      let start = tMin + Int64(Double(k + 1) * binTime), end = tMin + Int64(Double(j - 1) * binTime)
      if Double(end - start) >= minimum { gaps.append(Segment(start: start, end: end)) }
      k = j
    }
    columns = Int(options.width)
    let laneCount = laneKeys.count
    bands = Array(repeating: Band(), count: laneCount)
    columnTime = [Float](repeating: 0, count: laneCount * Timeline.states.count)
    current = laneStateAtStart.map { ($0.flatMap { Timeline.states.firstIndex(of: $0) }, tMin) }
    markers = Array(repeating: [:], count: laneCount)
    busy = Array(repeating: [], count: laneCount)
    memoryMax = [Double](repeating: -1, count: columns)
    memoryLast = [Double](repeating: -1, count: columns)
  }

  // MARK: Time to x

  static let gapWidth = 44.0

  /// The x of a time, in [0, width], with the gaps compressed.
  func x(_ t: Int64) -> Double {
    let total = Double(tMax - tMin) - gaps.reduce(0) { $0 + Double($1.end - $1.start) }
    let drawable = options.width - Double(gaps.count) * Timeline.gapWidth
    var x = 0.0, cursor = tMin
    for g in gaps {
      if t <= g.start { break }
      x += Double(g.start - cursor) / total * drawable
      if t < g.end { return x + Double(t - g.start) / Double(g.end - g.start) * Timeline.gapWidth }
      x += Timeline.gapWidth
      cursor = g.end
    }
    return min(options.width, x + Double(max(0, t - cursor)) / max(total, 1) * drawable)
  }

  /// A lane's state from `a` to `b`: the time it fills in each column. A
  /// lane's spans come in time order, so the columns they reach never go back.
  private func addState(_ lane: Int, _ state: Int, from a: Int64, to b: Int64) {
    guard b > a else { return }
    let x0 = x(max(a, tMin)), x1 = x(min(b, tMax))
    var c = Int(x0)
    while Double(c) < x1, c < columns {
      // Whole columns inside the span hold this state alone (the spans
      // before and after reach none of them): one step for all of them.
      if Double(c) >= x0, Double(c + 1) <= x1, c > bands[lane].finished, c > bands[lane].column {
        let last = min(columns - 1, Int(x1.rounded(.down)) - 1)
        finishColumn(lane)
        if c > bands[lane].finished + 1 { extendRun(lane, bands[lane].finished + 1, -1) }
        extendRun(lane, c, state)
        bands[lane].finished = last
        c = last + 1
        continue
      }
      let lo = max(Double(c), x0), hi = min(Double(c + 1), x1)
      if hi > lo, c > bands[lane].finished, c >= bands[lane].column {
        if c > bands[lane].column { finishColumn(lane) }
        bands[lane].column = c
        columnTime[lane * Timeline.states.count + state] += Float(hi - lo)
      }
      c += 1
    }
  }

  /// The lane's column being filled is complete: the state that holds most
  /// of it (over a quarter of it, else none) extends its run or starts one.
  private func finishColumn(_ lane: Int) {
    let c = bands[lane].column
    guard c >= 0 else { return }
    let n = Timeline.states.count
    var best = -1, bestTime: Float = 0.25
    for s in 0..<n where columnTime[lane * n + s] > bestTime {
      best = s
      bestTime = columnTime[lane * n + s]
    }
    for s in 0..<n { columnTime[lane * n + s] = 0 }
    // The columns between the last finished and this one hold no state.
    if c > bands[lane].finished + 1 { extendRun(lane, bands[lane].finished + 1, -1) }
    extendRun(lane, c, best)
    bands[lane].finished = c
    bands[lane].column = -1
  }

  private func extendRun(_ lane: Int, _ c: Int, _ state: Int) {
    if let r = bands[lane].open, r.state != state {
      bands[lane].runs.append((r.state, r.start, c))
      bands[lane].open = nil
    }
    if state >= 0 && bands[lane].open == nil { bands[lane].open = (state, c) }
  }

  /// `name` is made only for the first few markers of a bucket (its tooltip).
  private func addMarker(_ lane: Int?, _ kind: MarkerKind, _ t: Int64, _ name: @autoclosure () -> String) {
    let b = Int(x(t) / Timeline.bucketWidth)
    func add(_ bucket: inout Bucket) {
      bucket.counts[kind.rawValue] += 1
      bucket.time = min(bucket.time, t)
      guard bucket.names.count < 6 || kind == .callback else { return }
      let text = name()
      if bucket.names.count < 6 { bucket.names.append("\(Timeline.duration(Double(t) / 1_000_000)): \(text)") }
      if kind == .callback { bucket.addCallback(Timeline.shortName(text)) }
    }
    if let lane { add(&markers[lane][b, default: Bucket()]) } else { add(&memoryEvents[b, default: Bucket()]) }
  }

  /// The start of the `log` record of a BGTaskScheduler task's run.
  static let taskRunPrefix = "BGTaskScheduler: runs "

  /// Pass 2: every record, in order.
  public func draw(_ e: TimelineEvent) {
    precondition(scanned, "prepare() comes between the passes")
    // The memory band is one device's: the first that gives a figure (a
    // trace of several devices says which).
    if e.usedMB != nil && memoryDevice == nil { memoryDevice = e.device }
    if let used = e.usedMB, e.device == memoryDevice { noteMemory(used, at: e.time) }
    if e.kind == .memory, e.device == memoryDevice {
      memoryLimit = e.limitMB ?? memoryLimit
      warningMB = e.warningMB ?? warningMB
      jetsamMB = e.jetsamMB ?? jetsamMB
    }
    guard e.time <= tMax else { return }
    var l = lane(e)
    if let from = l, let to = redirect[from] {
      if e.kind == .state { return }  // the app's own lane shows its process states
      l = to
    }
    if e.kind == .state, let l {
      let s = e.to.flatMap { Timeline.states.firstIndex(of: $0) }
      if let old = current[l].state { addState(l, old, from: current[l].since, to: e.time) }
      current[l] = (s, max(e.time, tMin))
      return
    }
    if e.duration > 0, e.kind == .callback || e.kind == .notification, let l { addBusy(l, e, e.name ?? "callback") }
    guard e.time >= tMin else { return }
    switch e.kind {
    case .callback, .notification:
      let name = e.name ?? "callback"
      // -[… didReceiveMemoryWarning], -[AppDelegate applicationDidReceiveMemoryWarning:], and its notification.
      if name.hasSuffix("ReceiveMemoryWarning]") || name.hasSuffix("ReceiveMemoryWarning:]")
        || name == "UIApplicationDidReceiveMemoryWarningNotification" {
        addMarker(l, .memoryWarning, e.time, name)
      } else {
        addMarker(l, .callback, e.time, name)
      }
    case .kill:
      addMarker(l, .kill, e.time, "killed (\(e.reason ?? "?"))" + (e.detail.map { ", \($0)" } ?? ""))
    case .dataLoss:
      addMarker(l, .dataLoss, e.time, "data loss, \(e.unsaved.map(String.init) ?? "?") unsaved")
    case .expire:
      addMarker(l, .expire, e.time, "expiration of task \(e.detail ?? "?")")
    case .log:
      // A BGTaskScheduler task's run (reference §3.5) is marked where its
      // lane shows the process woken or launched for it.
      if let d = e.detail, d.hasPrefix(Timeline.taskRunPrefix) {
        addMarker(l, .callback, e.time, String(d.dropFirst(Timeline.taskRunPrefix.count - "runs ".count)))
      }
    case .memory:
      if e.name == nil, let used = e.usedMB, e.device == memoryDevice {
        addMarker(nil, .memoryWarning, e.time, "memory \(e.detail ?? Timeline.megabytes(used))")
      }
    default:
      break
    }
  }

  /// A handler that worked: its stretch goes on its app's lane, since the
  /// main thread is the process's, whichever scene the callback was for.
  private func addBusy(_ lane: Int, _ e: TimelineEvent, _ name: String) {
    let key = laneKeys[lane]
    guard let l = key.scene == nil ? lane : laneIndex[LaneKey(device: key.device, app: key.app, scene: nil)] else { return }
    let start = max(e.time, tMin), end = min(e.time + e.duration, tMax)
    guard end > start else { return }
    let x0 = x(start), x1 = max(x(end), x0 + 1)
    if var last = busy[l].last, x0 <= last.x1 + 1 {
      last.x1 = max(last.x1, x1)
      last.end = max(last.end, end)
      last.handlers += 1
      busy[l][busy[l].count - 1] = last
    } else {
      busy[l].append(BusyStretch(x0: x0, x1: x1, start: start, end: end, first: name))
    }
  }

  private func noteMemory(_ used: Double, at t: Int64) {
    guard t >= tMin else {
      memoryBefore = used  // what holds when the range begins
      return
    }
    guard t <= tMax else { return }
    let c = min(columns - 1, Int(x(t)))
    memoryMax[c] = max(memoryMax[c], used)
    memoryLast[c] = used
  }

  /// After pass 2: close what is open.
  public func finish() {
    for l in current.indices {
      if let s = current[l].state { addState(l, s, from: current[l].since, to: tMax) }
      finishColumn(l)
      if let r = bands[l].open { bands[l].runs.append((r.state, r.start, bands[l].finished + 1)) }
      bands[l].open = nil
    }
    // The memory in use holds between its changes: a column with no change
    // shows what the last one left.
    var last = memoryBefore ?? -1
    for c in 0..<columns {
      if memoryLast[c] >= 0 {
        memoryMax[c] = max(memoryMax[c], last)
        last = memoryLast[c]
      } else {
        memoryMax[c] = last
      }
    }
  }

  // MARK: - Drawing

  static let stateColour: [String: String] = [
    "active": "#009E73", "foregroundActive": "#009E73",
    "inactive": "#E69F00", "foregroundInactive": "#E69F00",
    "background": "#56B4E9", "suspended": "#999999",
  ]
  /// The band's height per state, a share of the lane: the state is told by
  /// height and by colour, never by colour alone.
  static let stateHeight: [String: Double] = [
    "active": 1, "foregroundActive": 1, "inactive": 0.72, "foregroundInactive": 0.72,
    "background": 0.46, "suspended": 0.22,
  ]

  public func svg() -> String {
    let right = 60.0, top = 56.0
    let laneHeight = 26.0, sceneLaneHeight = 20.0
    let shown = laneKeys.indices.filter {
      redirect[$0] == nil && (laneActive[$0] || current[$0].state != nil || laneStateAtStart[$0] != nil)
    }
    func laneName(_ key: LaneKey) -> String {
      let device = devices.count > 1 ? (options.deviceNames[key.device].map { "\(key.device) (\($0)): " } ?? "\(key.device): ") : ""
      return device + (key.scene.map { "    scene \($0)" } ?? key.app)
    }
    // The names' column: as wide as the longest name needs (memory's label at least).
    let names = shown.map { Timeline.clip(laneName(laneKeys[$0]), to: 40) }
    let left = min(280, max(170, (names.map { SVG.textWidth($0, size: 12) }.max() ?? 0) + 24))
    var laneY: [Int: Double] = [:]
    var y = top
    for l in shown {
      laneY[l] = y
      y += laneKeys[l].scene == nil ? laneHeight : sceneLaneHeight
    }
    let lanesBottom = y
    let memoryTop = lanesBottom + 22, memoryHeight = 70.0
    let axisY = memoryTop + memoryHeight + 12
    let legendY = axisY + 50
    let width = left + options.width + right
    func X(_ x: Double) -> Double { left + x }
    let legendText = legend(y: legendY, left: 20, width: width - 40)
    // Markers first: the callouts they number are listed under the key.
    var callouts = Callouts()
    var laneMarks: [String] = []
    for (l, name) in zip(shown, names) {
      let h = laneKeys[l].scene == nil ? laneHeight : sceneLaneHeight
      callouts.aboveRight = -.infinity
      laneMarks.append(drawMarkers(markers[l], y: laneY[l]! + h / 2, X: X, nameCallbacks: true, lane: name, callouts: &callouts))
    }
    let calloutText = calloutList(callouts, y: legendY + legendText.height + 8, left: 20, width: width - 40)
    let height = legendY + legendText.height + calloutText.height + 14

    var out = SVG.page(width: width, height: height, title: options.title, subtitle: summary(shownLanes: shown.count))
    // Compressed stretches, shaded, with their length written below the axis.
    for g in gaps {
      let x0 = X(x(g.start)), x1 = X(x(g.end))
      let length = Timeline.duration(Double(g.end - g.start) / 1_000_000)
      out += "<g><title>\(SVG.escape("nothing happens for \(length), from \(Timeline.duration(Double(g.start) / 1_000_000)) to \(Timeline.duration(Double(g.end) / 1_000_000)); compressed"))</title>"
      out += "<rect x=\"\(SVG.n(x0))\" y=\"\(SVG.n(top - 4))\" width=\"\(SVG.n(x1 - x0))\" height=\"\(SVG.n(axisY - top + 4))\" fill=\"#eeeeee\"/>"
      out += "<text x=\"\(SVG.n((x0 + x1) / 2))\" y=\"\(SVG.n(axisY + 32))\" text-anchor=\"middle\" font-size=\"10\" fill=\"#555555\">"
      out += "\(SVG.escape("+" + length))</text></g>\n"
    }
    // Lanes.
    for (i, (l, name)) in zip(shown, names).enumerated() {
      let key = laneKeys[l], y0 = laneY[l]!
      let h = key.scene == nil ? laneHeight : sceneLaneHeight
      out += "<line x1=\"\(SVG.n(X(0)))\" y1=\"\(SVG.n(y0 + h))\" x2=\"\(SVG.n(X(options.width)))\" y2=\"\(SVG.n(y0 + h))\" stroke=\"#e4e4e4\"/>"
      out += "<text x=\"\(SVG.n(left - 10))\" y=\"\(SVG.n(y0 + h / 2 + 4))\" text-anchor=\"end\"\(key.scene == nil ? "" : " fill=\"#555555\" font-size=\"11\"")>"
      out += "\(SVG.escape(name))</text>\n"
      // State runs: the state that holds most of each column, joined.
      for r in bands[l].runs {
        let state = Timeline.states[r.state]
        let band = (h - 6) * (Timeline.stateHeight[state] ?? 0.5)
        out += "<rect x=\"\(SVG.n(X(Double(r.start))))\" y=\"\(SVG.n(y0 + h - 3 - band))\" width=\"\(SVG.n(Double(r.end - r.start)))\" "
        out += "height=\"\(SVG.n(band))\" fill=\"\(Timeline.stateColour[state] ?? "#999999")\"><title>\(SVG.escape(state))</title></rect>\n"
      }
      // The main thread's busy stretches, a dark stripe above the band.
      for b in busy[l] {
        // Times to the millisecond: a stretch is often short beside the range.
        let from = Timeline.format3(Double(b.start) / 1_000_000), to = Timeline.format3(Double(b.end) / 1_000_000)
        let title = b.handlers == 1
          ? "main thread busy from t=\(from) s to t=\(to) s: \(b.first)"
          : "main thread busy in \(b.handlers) handlers' work between t=\(from) s and t=\(to) s, joined at this width (the first: \(b.first))"
        out += "<rect x=\"\(SVG.n(X(b.x0)))\" y=\"\(SVG.n(y0 + 1))\" width=\"\(SVG.n(b.x1 - b.x0))\" height=\"3\" fill=\"#222222\">"
        out += "<title>\(SVG.escape(title))</title></rect>\n"
      }
      // Markers over the band, callbacks named where there is room.
      out += laneMarks[i]
    }
    // The memory band.
    out += memoryBand(top: memoryTop, height: memoryHeight, X: X)
    // The time axis.
    out += axis(y: axisY, X: X)
    // The key.
    out += legendText.svg
    out += calloutText.svg
    return out + "</svg>\n"
  }

  /// The numbered marks' callbacks, each named, a line per mark (wrapped to
  /// the width): what a tooltip shows, for a picture printed or pasted as PNG.
  private func calloutList(_ callouts: Callouts, y: Double, left: Double, width: Double) -> (svg: String, height: Double) {
    guard !callouts.list.isEmpty else { return ("", 0) }
    let size = 11.0, step = 15.0
    var out = "<text x=\"\(SVG.n(left))\" y=\"\(SVG.n(y + 12))\" font-weight=\"bold\">The callbacks of the numbered marks</text>\n"
    var line = y + 12 + step + 2
    func write(_ text: String, indent: Double = 0) {
      out += "<text x=\"\(SVG.n(left + indent))\" y=\"\(SVG.n(line))\" font-size=\"\(SVG.n(size))\">\(SVG.escape(text))</text>\n"
      line += step
    }
    for (i, c) in callouts.list.enumerated() {
      let head = "[\(i + 1)] \(Timeline.format3(Double(c.time) / 1_000_000)) s, \(c.lane.trimmingCharacters(in: .whitespaces)): "
      var names = c.names
      if c.unnamed > 0 { names.append("and \(c.unnamed) more of other names") }
      // Greedy wrapping: as many names on a line as the width holds.
      var text = head, indent = 0.0
      for (k, n) in names.enumerated() {
        let piece = n + (k + 1 < names.count ? "," : "")
        let candidate = text.hasSuffix(": ") || text.isEmpty ? text + piece : text + " " + piece
        if SVG.textWidth(candidate, size: size) + indent > width, !text.isEmpty, text != head {
          write(text, indent: indent)
          text = piece
          indent = SVG.textWidth("[\(i + 1)] ", size: size)
        } else {
          text = candidate
        }
      }
      write(text, indent: indent)
    }
    if callouts.unlisted > 0 {
      write("… and \(callouts.unlisted) more mark\(callouts.unlisted == 1 ? "" : "s") with more callbacks than fit: "
            + "draw a shorter range with --from and --to")
    }
    return (out, line - y)
  }

  private func summary(shownLanes: Int) -> String {
    let span = Timeline.duration(Double(tMax - tMin) / 1_000_000)
    var s = "\(Timeline.duration(Double(tMin) / 1_000_000)) to \(Timeline.duration(Double(tMax) / 1_000_000)) (\(span)), \(count) records"
    let hidden = laneKeys.indices.filter { redirect[$0] == nil }.count - shownLanes
    if hidden > 0 { s += ", \(hidden) lane\(hidden == 1 ? "" : "s") with nothing in range hidden" }
    if !gaps.isEmpty { s += ", \(gaps.count) idle stretch\(gaps.count == 1 ? "" : "es") compressed (shaded)" }
    return s
  }

  /// The kinds a marker draws, side by side: each kind it holds, callbacks
  /// first (they come before what they lead to), each with its own count.
  private static func drawnKinds(_ b: Bucket) -> [MarkerKind] {
    [MarkerKind.callback, .memoryWarning, .kill, .dataLoss, .expire].filter { b.counts[$0.rawValue] > 0 }
  }

  /// A symbol's count, when it stands for more than one event of its kind:
  /// "×3" (a kill beside its data loss shows no number).
  private static func badge(_ b: Bucket, _ kind: MarkerKind) -> String? {
    let n = b.counts[kind.rawValue]
    return n > 1 ? "×\(n)" : nil
  }

  /// How wide a marker is drawn: its symbols and their counts.
  private static func markerWidth(_ b: Bucket) -> Double {
    drawnKinds(b).reduce(4) { $0 + 13 + (badge(b, $1).map { SVG.textWidth($0, size: 9) + 1 } ?? 0) }
  }

  /// A row of markers: buckets closer than the previous marker's width are
  /// drawn as one, so that no two symbols or counts overlap however dense
  /// the trace. With `nameCallbacks`, a mark of callbacks has their names
  /// written after it when they fit before the next mark (its tooltip has
  /// them always).
  private func drawMarkers(_ buckets: [Int: Bucket], y: Double, X: (Double) -> Double, nameCallbacks: Bool = false,
                           lane: String = "", callouts: inout Callouts) -> String {
    var groups: [(x: Double, bucket: Bucket)] = []
    for b in buckets.keys.sorted() {
      let bucket = buckets[b]!
      let x = (Double(b) + 0.5) * Timeline.bucketWidth
      if var g = groups.last, x < g.x + Timeline.markerWidth(g.bucket) {
        for k in 0..<bucket.counts.count { g.bucket.counts[k] += bucket.counts[k] }
        g.bucket.names += bucket.names.prefix(max(0, 6 - g.bucket.names.count))
        for (name, count) in zip(bucket.callbacks, bucket.callbackCounts) { g.bucket.addCallback(name, count: count) }
        g.bucket.time = min(g.bucket.time, bucket.time)
        groups[groups.count - 1] = g
        continue
      }
      groups.append((x, bucket))
    }
    var out = ""
    for (i, g) in groups.enumerated() {
      out += marker(g.bucket, x: X(g.x), y: y)
      guard nameCallbacks, !g.bucket.callbacks.isEmpty else { continue }
      let start = g.x + Timeline.markerWidth(g.bucket) - 4
      let room = (i + 1 < groups.count ? groups[i + 1].x - 8 : options.width + 56) - start
      let total = Int(g.bucket.counts[MarkerKind.callback.rawValue])
      // Each name once, "×N" after one that came N times.
      let names = zip(g.bucket.callbacks, g.bucket.callbackCounts).map { $1 > 1 ? "\($0) ×\($1)" : $0 }
      let all = names.joined(separator: ", ")
      var label: String
      if g.bucket.unnamedCallbacks == 0 && SVG.textWidth(all, size: 9.5) <= room {
        label = all
      } else {
        // Not all fit: the mark gets a number, and the list under the
        // picture names every callback it stands for (a PNG has no tooltip).
        var number = ""
        if callouts.list.count < Timeline.calloutsShown {
          callouts.list.append(Callout(time: g.bucket.time, lane: lane, names: names, unnamed: g.bucket.unnamedCallbacks))
          number = " [\(callouts.list.count)]"
        } else {
          callouts.unlisted += 1
        }
        let rest = total - Int(g.bucket.callbackCounts.first ?? 1)
        let candidates = [names[0] + (rest > 0 ? " and \(rest) more" : "") + number,
                          names[0] + (rest > 0 ? " …" : "") + number]
        if let fit = candidates.first(where: { SVG.textWidth($0, size: 9.5) <= room }) {
          label = fit
        } else {
          // No room beside the mark: its number goes above it, where the
          // previous number above leaves room.
          guard !number.isEmpty else { continue }
          let tag = String(number.dropFirst()), w = SVG.textWidth(tag, size: 8.5)
          let x0 = X(g.x) - w / 2
          guard x0 > callouts.aboveRight + 3 else { continue }
          callouts.aboveRight = x0 + w
          out += "<text x=\"\(SVG.n(x0))\" y=\"\(SVG.n(y - 8))\" font-size=\"8.5\" fill=\"#111111\" stroke=\"#ffffff\" "
          out += "stroke-width=\"2.5\" stroke-linejoin=\"round\" paint-order=\"stroke\">\(SVG.escape(tag))</text>\n"
          continue
        }
      }
      out += "<text x=\"\(SVG.n(X(start)))\" y=\"\(SVG.n(y + 3.5))\" font-size=\"9.5\" fill=\"#111111\" stroke=\"#ffffff\" "
      out += "stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">\(SVG.escape(label))</text>\n"
    }
    return out
  }

  /// One marker (or several close together): the symbol of each kind it
  /// draws, side by side, each followed by its count when it has several.
  private func marker(_ b: Bucket, x x0: Double, y: Double) -> String {
    let total = b.counts.reduce(0, +)
    let tip = SVG.escape(b.names.joined(separator: "\n") + (Int(total) > b.names.count ? "\n… \(Int(total) - b.names.count) more" : ""))
    var out = "<g><title>\(tip)</title>"
    var x = x0
    for kind in Timeline.drawnKinds(b) {
      let badge = Timeline.badge(b, kind)
      switch kind {
      case .kill:
        out += "<path d=\"M \(SVG.n(x - 5)) \(SVG.n(y - 5)) L \(SVG.n(x + 5)) \(SVG.n(y + 5)) M \(SVG.n(x + 5)) \(SVG.n(y - 5)) L \(SVG.n(x - 5)) \(SVG.n(y + 5))\" stroke=\"#D55E00\" stroke-width=\"3\"/>"
      case .dataLoss:
        out += "<path d=\"M \(SVG.n(x)) \(SVG.n(y - 6)) L \(SVG.n(x + 6)) \(SVG.n(y + 5)) L \(SVG.n(x - 6)) \(SVG.n(y + 5)) z\" fill=\"#CC79A7\" stroke=\"#000000\" stroke-width=\"0.8\"/>"
      case .expire:
        out += "<path d=\"M \(SVG.n(x)) \(SVG.n(y - 6)) L \(SVG.n(x + 6)) \(SVG.n(y)) L \(SVG.n(x)) \(SVG.n(y + 6)) L \(SVG.n(x - 6)) \(SVG.n(y)) z\" fill=\"#0072B2\" stroke=\"#ffffff\" stroke-width=\"0.8\"/>"
      case .memoryWarning:
        out += "<circle cx=\"\(SVG.n(x))\" cy=\"\(SVG.n(y))\" r=\"5\" fill=\"#F0E442\" stroke=\"#000000\" stroke-width=\"1\"/>"
      case .callback:
        out += "<line x1=\"\(SVG.n(x))\" y1=\"\(SVG.n(y - 7))\" x2=\"\(SVG.n(x))\" y2=\"\(SVG.n(y + 7))\" stroke=\"#222222\" stroke-width=\"\(badge == nil ? "1.2" : "2.5")\"/>"
      }
      x += 13
      if let badge {
        out += "<text x=\"\(SVG.n(x - 5.5))\" y=\"\(SVG.n(y + 3.5))\" font-size=\"9\" fill=\"#333333\" stroke=\"#ffffff\" stroke-width=\"2.5\" "
        out += "stroke-linejoin=\"round\" paint-order=\"stroke\">\(badge)</text>"
        x += SVG.textWidth(badge, size: 9) + 1
      }
    }
    return out + "</g>\n"
  }

  private func memoryBand(top: Double, height: Double, X: (Double) -> Double) -> String {
    let known = memoryMax.filter { $0 >= 0 }
    let whose = devices.count > 1 ? memoryDevice.map { " (device \($0))" } ?? "" : ""
    var out = "<text x=\"\(SVG.n(X(0) - 10))\" y=\"\(SVG.n(top + height - 4))\" text-anchor=\"end\">memory in use\(whose)</text>\n"
    out += "<rect x=\"\(SVG.n(X(0)))\" y=\"\(SVG.n(top))\" width=\"\(SVG.n(options.width))\" height=\"\(SVG.n(height))\" fill=\"#fafafa\" stroke=\"#dddddd\"/>\n"
    guard let peak = known.max() else {
      return out + "<text x=\"\(SVG.n(X(8)))\" y=\"\(SVG.n(top + height / 2 + 4))\" fill=\"#777777\">no memory figures in this trace</text>\n"
    }
    let scale = max(memoryLimit ?? 0, jetsamMB ?? 0, peak, 1)
    func Y(_ mb: Double) -> Double { top + height - mb / scale * height }
    var d = ""
    for c in 0..<columns where memoryMax[c] >= 0 {
      d += (d.isEmpty ? "M " : " L ") + "\(SVG.n(X(Double(c)))) \(SVG.n(Y(memoryMax[c])))"
    }
    out += "<path d=\"\(d)\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.5\"><title>memory in use</title></path>\n"
    // The levels, named outside the band on the right: the warning's below
    // its line, the jetsam level's above, so that the two never touch.
    for (label, mb, colour, below) in [("warning", warningMB, "#E69F00", true), ("jetsam", jetsamMB, "#D55E00", false)] {
      guard let mb else { continue }
      out += "<line x1=\"\(SVG.n(X(0)))\" y1=\"\(SVG.n(Y(mb)))\" x2=\"\(SVG.n(X(options.width)))\" y2=\"\(SVG.n(Y(mb)))\" stroke=\"\(colour)\" stroke-dasharray=\"5 3\"/>"
      out += "<text x=\"\(SVG.n(X(0) - 10))\" y=\"\(SVG.n(Y(mb) + (below ? 12 : -3)))\" text-anchor=\"end\" font-size=\"10\" fill=\"\(colour)\">\(label) \(Timeline.megabytes(mb))</text>\n"
    }
    // The scale's ends, outside the band on the right, clear of the marks
    // drawn inside it along its top.
    out += "<text x=\"\(SVG.n(X(options.width) + 4))\" y=\"\(SVG.n(top + 4))\" font-size=\"9\" fill=\"#555555\">\(Timeline.megabytes(scale))</text>\n"
    out += "<text x=\"\(SVG.n(X(options.width) + 4))\" y=\"\(SVG.n(top + height))\" font-size=\"9\" fill=\"#555555\">0 MB</text>\n"
    var none = Callouts()
    out += drawMarkers(memoryEvents, y: top + 10, X: X, callouts: &none)
    return out
  }

  /// Ticks at a round step (seconds to days) within the uncompressed
  /// stretches, and at both edges of each compressed one, where its time is
  /// written exactly (a round tick may not fall near it).
  private func axis(y: Double, X: (Double) -> Double) -> String {
    var out = "<line x1=\"\(SVG.n(X(0)))\" y1=\"\(SVG.n(y))\" x2=\"\(SVG.n(X(options.width)))\" y2=\"\(SVG.n(y))\" stroke=\"#333333\"/>\n"
    let visible = Double(tMax - tMin) - gaps.reduce(0) { $0 + Double($1.end - $1.start) }
    let steps: [Double] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200,
                           86400, 172_800, 604_800, 1_209_600, 2_592_000]
    let wanted = visible / 1_000_000 / 9
    let step = steps.first { $0 >= wanted } ?? steps.last!
    let stepMicros = Int64(step * 1_000_000)
    // The gaps' edges first: each a label ending at the gap's start and one
    // beginning at its end, so the two never overlap; round ticks keep clear.
    var taken: [(x0: Double, x1: Double)] = []
    for g in gaps {
      for (t, atStart) in [(g.start, true), (g.end, false)] {
        let px = X(x(t))
        let label = Timeline.duration(Double(t) / 1_000_000)
        let w = SVG.textWidth(label, size: 10)
        let (x0, x1) = atStart ? (px - w - 1, px) : (px, px + w + 1)
        if taken.contains(where: { x0 < $0.x1 + 4 && $0.x0 - 4 < x1 }) { continue }
        taken.append((x0, x1))
        out += "<line x1=\"\(SVG.n(px))\" y1=\"\(SVG.n(y))\" x2=\"\(SVG.n(px))\" y2=\"\(SVG.n(y + 5))\" stroke=\"#333333\"/>"
        out += "<text x=\"\(SVG.n(atStart ? px - 1 : px + 1))\" y=\"\(SVG.n(y + 17))\" text-anchor=\"\(atStart ? "end" : "start")\" "
        out += "font-size=\"10\" fill=\"#333333\">\(SVG.escape(label))</text>\n"
      }
    }
    var t = (tMin / stepMicros) * stepMicros
    if t < tMin { t += stepMicros }
    var drawn = 0
    while t <= tMax, drawn < 400 {
      defer { t += stepMicros }
      if gaps.contains(where: { t > $0.start && t < $0.end }) { continue }
      let px = X(x(t))
      let label = Timeline.duration(Double(t) / 1_000_000, short: step >= 1)
      let w = SVG.textWidth(label, size: 10.5)
      guard !taken.contains(where: { px - w / 2 < $0.x1 + 8 && $0.x0 - 8 < px + w / 2 }) else { continue }
      taken.append((px - w / 2, px + w / 2))
      drawn += 1
      out += "<line x1=\"\(SVG.n(px))\" y1=\"\(SVG.n(y))\" x2=\"\(SVG.n(px))\" y2=\"\(SVG.n(y + 5))\" stroke=\"#333333\"/>"
      out += "<text x=\"\(SVG.n(px))\" y=\"\(SVG.n(y + 17))\" text-anchor=\"middle\" font-size=\"10.5\">\(SVG.escape(label))</text>\n"
    }
    // Below the first tick's label, which is centred on the axis' start.
    out += "<text x=\"\(SVG.n(X(0) - 10))\" y=\"\(SVG.n(y + 32))\" text-anchor=\"end\" font-size=\"10.5\" fill=\"#555555\">virtual time</text>\n"
    return out
  }

  /// The key, in rows that fit `width`: its SVG and its height.
  private func legend(y: Double, left: Double, width: Double) -> (svg: String, height: Double) {
    var items: [(width: Double, draw: (Double, Double) -> String)] = []
    for state in ["active", "inactive", "background", "suspended"] {
      let h = 14 * (Timeline.stateHeight[state] ?? 0.5)
      items.append((38 + SVG.textWidth(state, size: 11), { x, y in
        "<rect x=\"\(SVG.n(x))\" y=\"\(SVG.n(y + 14 - h))\" width=\"22\" height=\"\(SVG.n(h))\" fill=\"\(Timeline.stateColour[state]!)\"/>"
          + "<text x=\"\(SVG.n(x + 28))\" y=\"\(SVG.n(y + 12))\" font-size=\"11\">\(state)</text>"
      }))
    }
    let marks: [(Bucket, String)] = [
      (Timeline.bucket(.callback, 1), "callback (named where there is room)"),
      (Timeline.bucket(.callback, 3), "3 events in one mark"),
      (Timeline.bucket(.kill, 1), "kill"), (Timeline.bucket(.dataLoss, 1), "data loss"),
      (Timeline.bucket(.expire, 1), "expiration"), (Timeline.bucket(.memoryWarning, 1), "memory warning"),
    ]
    for (b, label) in marks {
      let w = Timeline.markerWidth(b)
      items.append((w + 14 + SVG.textWidth(label, size: 11), { [self] x, y in
        marker(b, x: x + 6, y: y + 8) + "<text x=\"\(SVG.n(x + w + 4))\" y=\"\(SVG.n(y + 12))\" font-size=\"11\">\(label)</text>"
      }))
    }
    let busyLabel = "main thread busy with a handler's work"
    if busy.contains(where: { !$0.isEmpty }) { items.append((34 + SVG.textWidth(busyLabel, size: 11), { x, y in
      "<rect x=\"\(SVG.n(x))\" y=\"\(SVG.n(y + 5))\" width=\"22\" height=\"3\" fill=\"#222222\"/>"
        + "<text x=\"\(SVG.n(x + 28))\" y=\"\(SVG.n(y + 12))\" font-size=\"11\">\(busyLabel)</text>"
    })) }
    let idle = "idle stretch, compressed: its length below, its ends' times on the axis"
    items.append((34 + SVG.textWidth(idle, size: 11), { x, y in
      "<rect x=\"\(SVG.n(x))\" y=\"\(SVG.n(y))\" width=\"22\" height=\"14\" fill=\"#eeeeee\"/>"
        + "<text x=\"\(SVG.n(x + 28))\" y=\"\(SVG.n(y + 12))\" font-size=\"11\">\(idle)</text>"
    }))
    var out = "", x = left, row = 0.0
    for item in items {
      if x + item.width > left + width, x > left {
        x = left
        row += 22
      }
      out += item.draw(x, y + row)
      x += item.width + 10
    }
    return (out + "\n", row + 22)
  }

  static func bucket(_ kind: MarkerKind, _ count: Int32) -> Bucket {
    var b = Bucket()
    b.counts[kind.rawValue] = count
    return b
  }

  // MARK: - Words

  /// "0 s", "45 s", "2 min", "1 h 30 min", "2 d 6 h".
  static func duration(_ seconds: Double, short: Bool = false) -> String {
    let s = seconds.rounded(.down)
    if seconds < 60 {
      let fraction = seconds - s
      return fraction > 0.0005 && !short ? String(format3(seconds)) + " s" : "\(Int(s)) s"
    }
    let total = Int(s)
    let d = total / 86_400, h = total % 86_400 / 3600, m = total % 3600 / 60, sec = total % 60
    if d > 0 { return "\(d) d" + (h > 0 ? " \(h) h" : "") }
    if h > 0 { return "\(h) h" + (m > 0 ? " \(m) min" : "") }
    return "\(m) min" + (sec > 0 ? " \(sec) s" : "")
  }

  static func format3(_ x: Double) -> String {
    let r = (x * 1000).rounded() / 1000
    var t = String(r)
    if t.hasSuffix(".0") { t.removeLast(2) }
    return t
  }

  /// "512 MB", "1.5 MB"; a figure too large for a whole number of 64 bits
  /// (or for three decimals) in Swift's shortest form ("1.7e+308 MB").
  static func megabytes(_ mb: Double) -> String {
    guard abs(mb) < 1e15 else { return "\(mb) MB" }
    return (mb == mb.rounded() ? String(Int(mb)) : format3(mb)) + " MB"
  }

  /// A callback's name as a mark's label: the selector alone for the app's
  /// and the scene's delegates, "Class selector" for others (a view
  /// controller's), a notification's name as it is.
  static func shortName(_ name: String) -> String {
    guard name.hasPrefix("-["), name.hasSuffix("]"), let space = name.firstIndex(of: " ") else { return name }
    let receiver = name[name.index(name.startIndex, offsetBy: 2)..<space]
    let selector = name[name.index(after: space)..<name.index(before: name.endIndex)]
    return receiver == "AppDelegate" || receiver == "SceneDelegate" ? String(selector) : "\(receiver) \(selector)"
  }

  static func clip(_ s: String, to n: Int) -> String {
    s.count <= n ? s : String(s.prefix(n - 1)) + "…"
  }
}

extension TimelineEvent {
  /// The same app's process lane.
  static func appOnly(_ e: TimelineEvent) -> TimelineEvent {
    var a = TimelineEvent()
    a.device = e.device
    a.app = e.app
    a.kind = .action
    return a
  }
}

extension Timeline {
  /// Draws the records that `each` gives (it is called three times: two
  /// looks for the first pass, one for the second).
  public static func render(options: TimelineOptions, _ each: ((TimelineEvent) throws -> Void) throws -> Void) rethrows -> String {
    try renderCounting(options: options, each).svg
  }

  /// `render`, with how many records fell in the range (0: an empty picture).
  public static func renderCounting(options: TimelineOptions, _ each: ((TimelineEvent) throws -> Void) throws -> Void) rethrows
    -> (svg: String, records: Int)
  {
    let t = Timeline(options: options)
    try each { t.scan($0) }
    try each { t.scanActivity($0) }
    t.prepare()
    try each { t.draw($0) }
    t.finish()
    return (t.svg(), t.count)
  }
}
