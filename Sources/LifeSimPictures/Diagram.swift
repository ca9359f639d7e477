import Foundation
import LifeSimEngine

/// A machine `lifesim diagram` draws, by the word its row in the engine's
/// machine registry gives (`MachineRow.drawnAs`): every machine is drawn from
/// the engine's own tables, never from a copy kept by hand.
public struct DiagramMachine: Hashable, Sendable, CustomStringConvertible {
  public let name: String

  /// The process: `AppLifecycle`, in the app-delegate or the scene model.
  public static let process = DiagramMachine(name: "process")
  /// A scene: `SceneLifecycle`.
  public static let scene = DiagramMachine(name: "scene")
  /// A view controller's appearance: `AppearanceLifecycle`.
  public static let vc = DiagramMachine(name: "vc")

  public init?(rawValue: String) {
    guard MachineRow.drawnNames.contains(rawValue) else { return nil }
    name = rawValue
  }

  private init(name: String) { self.name = name }

  public var rawValue: String { name }
  public var description: String { name }
  public static var allCases: [DiagramMachine] { MachineRow.drawnNames.map { DiagramMachine(name: $0) } }

  /// "process, scene, or vc (a view controller's appearance)".
  public static var listed: String {
    let names = allCases.map { m in
      MachineRow.all.first { $0.drawnAs == m.name }?.note.map { "\(m.name) (\($0))" } ?? m.name
    }
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + ", or " + names.last!
  }
}

/// The output formats of `lifesim diagram`.
public enum DiagramFormat: String, CaseIterable, Sendable {
  case svg, dot, mermaid
}

public struct DiagramError: Error, CustomStringConvertible {
  public let description: String
}

/// A state machine ready to draw: its states in a reading order, and its
/// edges labelled with the event and the callbacks the profile delivers.
public struct StateDiagram: Sendable {
  public struct Edge: Sendable {
    public var from: Int
    public var to: Int
    public var event: String
    public var callbacks: [String]
    /// The system makes the change without telling the app: drawn dashed.
    public var silent: Bool
    public var reference: String
    /// Callbacks another machine delivers with this edge: in the scene
    /// model, a scene's (`sceneDidBecomeActive:` as the process activates).
    public var alongside: [String] = []
  }

  public let title: String
  public let states: [String]
  public internal(set) var edges: [Edge]
  /// A note beside the machine: where the rest of the story is drawn.
  public internal(set) var note: String?

  /// The diagram of `table`, with each callback named by `name` (nil: the
  /// profile does not deliver it, and the label leaves it out).
  public init<S: MachineValue, E: MachineValue>(_ table: TransitionTable<S, E>, title: String,
                                                 name: (Callback) -> String? = { $0.selector }) {
    self.title = title
    states = S.allCases.map(\.description)
    let order = Array(S.allCases)
    edges = table.transitions.map { t in
      Edge(from: order.firstIndex(of: t.from)!, to: order.firstIndex(of: t.to)!, event: t.event.description,
           callbacks: t.callbacks.compactMap(name), silent: t.isSilent, reference: t.reference)
    }
  }

  /// The diagram of a machine of the registry, with each callback named by
  /// `name` (nil: the profile does not deliver it).
  public init(_ row: MachineRow, title: String, name: (Callback) -> String? = { $0.selector }) {
    self.title = title
    states = row.states
    edges = row.edges.map { e in
      Edge(from: e.from, to: e.to, event: e.event, callbacks: e.callbacks.compactMap(name), silent: e.silent,
           reference: e.reference)
    }
  }

  /// The diagram of `machine` for iOS `version`: the process machine in
  /// `model` (by default the version's: scenes from iOS 13).
  public static func make(machine: DiagramMachine, ios version: Int, model: LifecycleModel? = nil) throws -> StateDiagram {
    let profile: OSProfile
    do { profile = try OSProfile(version: version) } catch { throw DiagramError(description: "\(error)") }
    // The callbacks this version delivers: the engine's own rule.
    func name(_ c: Callback) -> String? {
      switch profile.delivery(of: c) {
      case .always: return c.selector
      case .never: return nil
      case .ifAny: return c.selector + " (if any)"
      case .whenImplemented: return c.selector + " (if implemented)"
      }
    }
    let rows = MachineRow.all.filter { $0.drawnAs == machine.name }
    let model = model ?? (profile.supportsScenes ? .scene : .appDelegate)
    // The process machines differ by model; a machine of one row has none.
    guard let row = rows.count == 1 ? rows.first : rows.first(where: { $0.model == model }) else {
      throw DiagramError(description: "no \(machine) machine in the \(model) model")
    }
    if row.needsScenes && !profile.supportsScenes {
      let what = row.model == nil ? "scenes need" : "the scene model needs"
      throw DiagramError(description: "\(what) iOS 13 or later (asked: iOS \(version))")
    }
    let during = row.whileIn.flatMap(name).map { "; while appearing: \($0)" } ?? ""
    var diagram = StateDiagram(row, title: "iOS \(version): \(row.name)" + during, name: name)
    if row.model == .scene {
      // The process follows its scenes (SceneLifecycle.appState): an edge
      // the scene machine also has brings that edge's callbacks with it.
      for k in diagram.edges.indices where !diagram.edges[k].silent {
        let event = diagram.edges[k].event
        if let t = SceneLifecycle.table.transitions.first(where: { $0.event.description == event && !$0.callbacks.isEmpty }) {
          diagram.edges[k].alongside = t.callbacks.compactMap(name)
        }
      }
      diagram.note = "The process follows its scenes: active while one is active, inactive while one is on screen, "
        + "background while one is connected. Each scene's own machine: lifesim diagram --machine scene"
    }
    return diagram
  }

  public func render(_ format: DiagramFormat) -> String {
    switch format {
    case .svg: return svg()
    case .dot: return dot()
    case .mermaid: return mermaid()
    }
  }

  /// An edge's label, a line each: the event, the callbacks it delivers,
  /// and those another machine delivers with it.
  func labelLines(_ e: Edge) -> [String] {
    [e.event + (e.silent ? " (silent)" : "")] + e.callbacks + e.alongside.map { "\($0) (scene)" }
  }

  // MARK: - Graphviz

  /// Graphviz's `dot` language: states as coloured boxes, silent edges
  /// dashed and grey, the note as a note shape tied to the machine.
  /// `headports` names where an edge (by index) meets its target: a compass
  /// point, from `spreadHeads`.
  public func dot(headports: [Int: String] = [:]) -> String {
    func quote(_ s: String) -> String { "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }
    var out = "digraph lifecycle {\n"
    out += "  label=\(quote(title)); labelloc=t; rankdir=TB; fontname=\"Helvetica,Arial,sans-serif\"; fontsize=16;\n"
    out += "  nodesep=0.5; ranksep=0.9; pad=0.3;\n"
    out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica,Arial,sans-serif\", fontsize=14, penwidth=2];\n"
    out += "  edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=10, arrowsize=0.8];\n"
    for (i, s) in states.enumerated() {
      let colour = SVG.palette[i % SVG.palette.count]
      out += "  \(quote(s)) [color=\"\(colour)\", fillcolor=\"\(colour)26\"];\n"
    }
    for (k, e) in edges.enumerated() {
      let label = labelLines(e).joined(separator: "\\n")
      out += "  \(quote(states[e.from])) -> \(quote(states[e.to])) [label=\"\(label)\""
      if let port = headports[k] { out += ", headport=\(port)" }
      if e.silent { out += ", style=dashed, color=\"#777777\", fontcolor=\"#555555\"" }
      out += "];\n"
    }
    if let note {
      out += "  note [shape=note, style=filled, fillcolor=\"#ffffff\", color=\"#999999\", fontsize=11, penwidth=1, "
      // Left-justified lines: each ends with dot's \l.
      let lines = StateDiagram.wrap(note, at: 46).map { $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\\l" }
      out += "label=\"\(lines.joined())\"];\n"
      out += "  note -> \(quote(states[min(1, states.count - 1)])) [style=dotted, arrowhead=none, color=\"#999999\"];\n"
    }
    return out + "}\n"
  }

  /// Where each edge should meet its target so that no two arrowheads pile
  /// up: given where a first layout put the states (`plain`, the text of
  /// `dot -Tplain`), each edge into a state that several edges reach gets
  /// the compass point nearest the direction it comes from that no other of
  /// them has taken.
  public func spreadHeads(plain: String) -> [Int: String] {
    var at: [String: (x: Double, y: Double)] = [:]
    for line in plain.split(separator: "\n") where line.hasPrefix("node ") {
      let fields = line.split(separator: " ")
      guard fields.count > 3, let x = Double(fields[2]), let y = Double(fields[3]) else { continue }
      at[String(fields[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))] = (x, y)
    }
    // Compass points by angle, y upwards as -Tplain gives it.
    let compass = [("e", 0.0), ("ne", 45.0), ("n", 90.0), ("nw", 135.0), ("w", 180.0), ("sw", 225.0), ("s", 270.0), ("se", 315.0)]
    func gap(_ a: Double, _ b: Double) -> Double { let d = abs(a - b).truncatingRemainder(dividingBy: 360); return min(d, 360 - d) }
    var ports: [Int: String] = [:]
    for target in states.indices {
      guard let t = at[states[target]] else { continue }
      var incoming: [(edge: Int, angle: Double)] = []
      for (k, e) in edges.enumerated() where e.to == target && e.from != target {
        guard let s = at[states[e.from]] else { continue }
        let angle = atan2(s.y - t.y, s.x - t.x) * 180 / .pi
        incoming.append((k, angle < 0 ? angle + 360 : angle))
      }
      guard incoming.count > 1, incoming.count <= compass.count else { continue }
      var taken = Set<String>()
      for (k, angle) in incoming.sorted(by: { ($0.angle, $0.edge) < ($1.angle, $1.edge) }) {
        let free = compass.filter { !taken.contains($0.0) }
        let best = free.min { (gap($0.1, angle), $0.1) < (gap($1.1, angle), $1.1) }!
        taken.insert(best.0)
        ports[k] = best.0
      }
    }
    return ports
  }

  /// Words in lines of at most `width` characters.
  static func wrap(_ text: String, at width: Int) -> [String] {
    var lines: [String] = [], line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  // MARK: - Mermaid

  /// A Mermaid flowchart (its state diagrams cannot dash an edge): silent
  /// edges are dotted links.
  public func mermaid() -> String {
    func id(_ i: Int) -> String { "s\(i)" }
    func text(_ s: String) -> String { s.replacing("\"", with: "#quot;") }
    var out = "---\ntitle: \(title)\n---\nflowchart LR\n"
    for (i, s) in states.enumerated() { out += "  \(id(i))([\"\(text(s))\"])\n" }
    for e in edges {
      let label = text(labelLines(e).joined(separator: "<br/>"))
      out += "  \(id(e.from)) " + (e.silent ? "-. \"\(label)\" .->" : "-- \"\(label)\" -->") + " \(id(e.to))\n"
    }
    return out
  }

  // MARK: - SVG

  /// An arc diagram: the states in a row, edges to the right as arcs above
  /// the row, edges to the left as arcs below it. An arc leaves from the top
  /// or bottom of its state and clears every state between, so no edge
  /// crosses a state; each label sits at its arc's apex, and an arc whose
  /// label would touch another label or a state is raised until it does not.
  public func svg() -> String {
    let nodeFont = 14.0, labelFont = 11.5, lineHeight = 14.0
    let nodeHeight = 40.0, margin = 30.0
    // A state is wide enough for its arcs' ends to sit apart (20 px each,
    // on the side they use), so that no two arrowheads pile up.
    let nodeWidths = states.indices.map { s -> Double in
      let above = edges.filter { ($0.from == s || $0.to == s) && $0.from < $0.to }.count
      let below = edges.filter { ($0.from == s || $0.to == s) && $0.from > $0.to }.count
      return max(SVG.textWidth(states[s], size: nodeFont, bold: true) + 32, 104, Double(max(above, below)) * 20 / 0.76)
    }

    // Silent edges that share an event and a target (the kills from each
    // running state) say where they come from, so each label names its arc.
    var sharedSilent: [String: Int] = [:]
    for e in edges where e.silent { sharedSilent["\(e.event)>\(e.to)", default: 0] += 1 }
    func lines(_ e: Edge) -> [String] {
      guard e.silent else { return labelLines(e) }
      let from = sharedSilent["\(e.event)>\(e.to)", default: 0] > 1 ? " from \(states[e.from])" : ""
      return ["\(e.event)\(from) (silent)"] + e.callbacks
    }
    func labelSize(_ e: Edge) -> (w: Double, h: Double) {
      // The first line (the event) is bold, the callbacks regular.
      let w = lines(e).enumerated().map { SVG.textWidth($1, size: labelFont, bold: $0 == 0 && !e.silent) }.max() ?? 0
      return (w + 12, Double(lines(e).count) * lineHeight + 6)
    }

    // Columns: wide enough apart for the labels of arcs between neighbours.
    var centers: [Double] = []
    var x = margin
    for i in states.indices {
      if i == 0 {
        x += nodeWidths[0] / 2
      } else {
        let neighbours = edges.filter { min($0.from, $0.to) == i - 1 && max($0.from, $0.to) == i }
        let widest = neighbours.map { labelSize($0).w }.max() ?? 0
        x += max((nodeWidths[i - 1] + nodeWidths[i]) / 2 + 70, widest + 30)
      }
      centers.append(x)
    }
    let rowWidth = x + nodeWidths.last! / 2 + margin

    // Ports: where each arc meets a state, spread along its top or bottom
    // edge in the order of the arcs' other ends, so arrows do not pile up.
    var ports: [Int: (from: Double, to: Double)] = [:]
    for (side, above) in [(0, true), (1, false)] {
      _ = side
      for s in states.indices {
        var ends: [(edge: Int, isFrom: Bool, other: Double)] = []
        for (k, e) in edges.enumerated() where (e.from < e.to) == above {
          if e.from == s { ends.append((k, true, centers[e.to])) }
          if e.to == s { ends.append((k, false, centers[e.from])) }
        }
        ends.sort { ($0.other, $0.isFrom ? 0 : 1) < ($1.other, $1.isFrom ? 0 : 1) }
        let usable = nodeWidths[s] * 0.76
        for (j, end) in ends.enumerated() {
          let px = centers[s] - usable / 2 + usable * (Double(j) + 0.5) / Double(ends.count)
          var p = ports[end.edge] ?? (0, 0)
          if end.isFrom { p.from = px } else { p.to = px }
          ports[end.edge] = p
        }
      }
    }

    // Heights: shortest arcs first; raise an arc until its label is clear of
    // the states and the labels placed, no arc placed runs through its label,
    // and it runs through no label placed (so that labels need not hide
    // edges). An arc whose ends start under a label cannot rise clear of it:
    // after a bounded search it keeps the lowest height with its label clear.
    let baseline = 0.0  // the row's centre line, shifted into place below
    func curve(_ k: Int, height h: Double) -> [(x: Double, y: Double)] {
      let e = edges[k], above = e.from < e.to, p = ports[k]!
      let edgeY = above ? baseline - nodeHeight / 2 : baseline + nodeHeight / 2
      let control = above ? edgeY - h * 4 / 3 : edgeY + h * 4 / 3
      return stride(from: 0.0, through: 1.0, by: 1.0 / 48).map { t in
        let u = 1 - t
        return (u * u * u * p.from + 3 * u * u * t * p.from + 3 * u * t * t * p.to + t * t * t * p.to,
                u * u * u * edgeY + 3 * u * u * t * control + 3 * u * t * t * control + t * t * t * edgeY)
      }
    }
    func crosses(_ points: [(x: Double, y: Double)], _ b: Box) -> Bool {
      points.contains { $0.x > b.x0 - 2 && $0.x < b.x1 + 2 && $0.y > b.y0 - 2 && $0.y < b.y1 + 2 }
    }
    var curves: [Int: [(x: Double, y: Double)]] = [:]
    var placed: [Box] = states.indices.map {
      Box(x0: centers[$0] - nodeWidths[$0] / 2, y0: baseline - nodeHeight / 2,
          x1: centers[$0] + nodeWidths[$0] / 2, y1: baseline + nodeHeight / 2)
    }
    var heights = [Double](repeating: 0, count: edges.count)
    var labelBoxes = [Box](repeating: Box(x0: 0, y0: 0, x1: 0, y1: 0), count: edges.count)
    let byLength = edges.indices.sorted { a, b in
      let la = abs(centers[edges[a].to] - centers[edges[a].from]), lb = abs(centers[edges[b].to] - centers[edges[b].from])
      return (la, a) < (lb, b)
    }
    for k in byLength {
      let e = edges[k], above = e.from < e.to
      let p = ports[k]!
      let mid = (p.from + p.to) / 2
      let size = labelSize(e)
      var h = 34.0 + 18 * Double(abs(e.to - e.from) - 1)
      var fallback: (h: Double, box: Box)?
      var tries = 0
      while true {
        let apex = above ? baseline - nodeHeight / 2 - h : baseline + nodeHeight / 2 + h
        let box = Box(x0: mid - size.w / 2, y0: apex - size.h / 2, x1: mid + size.w / 2, y1: apex + size.h / 2)
        if !placed.contains(where: { box.intersects($0, margin: 4) }) {
          if fallback == nil { fallback = (h, box) }
          let mine = curve(k, height: h)
          let clear = !curves.values.contains { crosses($0, box) }
            && !placed.dropFirst(states.count).contains { crosses(mine, $0) }
          if clear || tries >= 40 {
            let chosen = clear ? (h, box) : fallback!
            heights[k] = chosen.0
            labelBoxes[k] = chosen.1
            placed.append(chosen.1)
            curves[k] = curve(k, height: chosen.0)
            break
          }
          tries += 1
        }
        h += 8
      }
    }

    // The key and the title need their room too.
    let keyText = ("event, then the callbacks it delivers in order", "silent: the system acts and the app is not told")
    let keyWidth = 48 + SVG.textWidth(keyText.0, size: 11.5) + 30 + 48 + SVG.textWidth(keyText.1, size: 11.5)
    let width = max(rowWidth, keyWidth + 2 * margin, SVG.textWidth(title, size: 16, bold: true) + 2 * margin)
    let top = (labelBoxes.map(\.y0).min() ?? -nodeHeight) - margin - 34  // room for the title
    let noteLines = note.map { StateDiagram.wrap($0, at: max(40, Int((width - 2 * margin) / 6.2))) } ?? []
    let bottom = (labelBoxes.map(\.y1).max() ?? nodeHeight) + margin + 40 + 17 * Double(noteLines.count)  // room for the key and the note
    let height = bottom - top
    func y(_ v: Double) -> Double { v - top }

    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(SVG.n(width))" height="\(SVG.n(height))" \
      viewBox="0 0 \(SVG.n(width)) \(SVG.n(height))" font-family="Helvetica, Arial, sans-serif">
      <title>\(SVG.escape(title))</title>
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#333333"/>
        </marker>
        <marker id="arrow-silent" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#777777"/>
        </marker>
      </defs>
      <rect width="100%" height="100%" fill="#ffffff"/>
      <text x="\(SVG.n(width / 2))" y="24" text-anchor="middle" font-size="16" font-weight="bold">\(SVG.escape(title))</text>

      """
    // Arcs first, then labels and states over them.
    for (k, e) in edges.enumerated() {
      let above = e.from < e.to
      let p = ports[k]!
      let edgeY = above ? baseline - nodeHeight / 2 : baseline + nodeHeight / 2
      let control = above ? edgeY - heights[k] * 4 / 3 : edgeY + heights[k] * 4 / 3
      let colour = e.silent ? "#777777" : "#333333"
      out += "<path d=\"M \(SVG.n(p.from)) \(SVG.n(y(edgeY))) C \(SVG.n(p.from)) \(SVG.n(y(control))) "
      out += "\(SVG.n(p.to)) \(SVG.n(y(control))) \(SVG.n(p.to)) \(SVG.n(y(edgeY)))\" fill=\"none\" stroke=\"\(colour)\" "
      out += "stroke-width=\"1.5\"" + (e.silent ? " stroke-dasharray=\"6 4\"" : "")
      out += " marker-end=\"url(#\(e.silent ? "arrow-silent" : "arrow"))\">"
      out += "<title>\(SVG.escape("\(states[e.from]) → \(states[e.to]): \(e.event) (reference \(e.reference))"))</title></path>\n"
    }
    for (k, e) in edges.enumerated() {
      let b = labelBoxes[k]
      out += "<g><title>\(SVG.escape("\(states[e.from]) → \(states[e.to]) (reference \(e.reference))"))</title>"
      out += "<rect x=\"\(SVG.n(b.x0))\" y=\"\(SVG.n(y(b.y0)))\" width=\"\(SVG.n(b.x1 - b.x0))\" height=\"\(SVG.n(b.y1 - b.y0))\" "
      out += "rx=\"4\" fill=\"#ffffff\" stroke=\"\(e.silent ? "#bbbbbb" : "#cccccc")\"/>"
      for (j, line) in lines(e).enumerated() {
        let ty = b.y0 + 3 + lineHeight * Double(j + 1) - 3
        let style = j == 0 ? (e.silent ? " font-style=\"italic\" fill=\"#555555\"" : " font-weight=\"bold\"") : " fill=\"#222222\""
        out += "<text x=\"\(SVG.n((b.x0 + b.x1) / 2))\" y=\"\(SVG.n(y(ty)))\" text-anchor=\"middle\" font-size=\"\(SVG.n(labelFont))\"\(style)>"
        out += SVG.escape(line) + "</text>"
      }
      out += "</g>\n"
    }
    for (i, s) in states.enumerated() {
      let colour = SVG.palette[i % SVG.palette.count]
      let x0 = centers[i] - nodeWidths[i] / 2
      out += "<g><title>\(SVG.escape(s))</title><rect x=\"\(SVG.n(x0))\" y=\"\(SVG.n(y(baseline - nodeHeight / 2)))\" "
      out += "width=\"\(SVG.n(nodeWidths[i]))\" height=\"\(SVG.n(nodeHeight))\" rx=\"10\" fill=\"\(colour)\" fill-opacity=\"0.16\" "
      out += "stroke=\"\(colour)\" stroke-width=\"2\"/>"
      out += "<text x=\"\(SVG.n(centers[i]))\" y=\"\(SVG.n(y(baseline) + 5))\" text-anchor=\"middle\" font-size=\"\(SVG.n(nodeFont))\" "
      out += "font-weight=\"bold\" fill=\"#111111\">\(SVG.escape(s))</text></g>\n"
    }
    // The key.
    let keyY = y(bottom - 22 - 17 * Double(noteLines.count))
    for (i, line) in noteLines.enumerated() {
      out += "<text x=\"\(SVG.n(margin))\" y=\"\(SVG.n(keyY + 26 + 17 * Double(i)))\" font-size=\"11.5\" font-style=\"italic\" fill=\"#333333\">"
      out += SVG.escape(line) + "</text>\n"
    }
    out += "<line x1=\"\(SVG.n(margin))\" y1=\"\(SVG.n(keyY))\" x2=\"\(SVG.n(margin + 40))\" y2=\"\(SVG.n(keyY))\" stroke=\"#333333\" stroke-width=\"1.5\"/>"
    out += "<text x=\"\(SVG.n(margin + 48))\" y=\"\(SVG.n(keyY + 4))\" font-size=\"11.5\">\(keyText.0)</text>"
    let second = margin + 48 + SVG.textWidth(keyText.0, size: 11.5) + 30
    out += "<line x1=\"\(SVG.n(second))\" y1=\"\(SVG.n(keyY))\" x2=\"\(SVG.n(second + 40))\" y2=\"\(SVG.n(keyY))\" stroke=\"#777777\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
    out += "<text x=\"\(SVG.n(second + 48))\" y=\"\(SVG.n(keyY + 4))\" font-size=\"11.5\">\(keyText.1)</text>\n"
    return out + "</svg>\n"
  }
}
