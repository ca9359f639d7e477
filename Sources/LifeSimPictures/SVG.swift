import LifeSimEngine

/// Small helpers for the SVG pictures: escaping, text widths, the palette.
enum SVG {
  /// Okabe–Ito: distinguishable with the common colour-vision deficiencies.
  static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]

  /// Text for an XML attribute or element.
  static func escape(_ s: String) -> String { xmlEscaped(s) }

  /// The width of `text` in the sans-serif font at `size` px, estimated from
  /// the average advance of its characters (no font metrics here): generous,
  /// so that labels placed apart by it do not touch.
  static func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
    var em = 0.0
    for c in text.unicodeScalars {
      switch c {
      case "i", "l", "j", "t", "f", "r", ":", ".", ",", "(", ")", " ", "I", "!", "'", "|": em += 0.34
      case "m", "w", "M", "W": em += 0.9
      case "A"..."Z": em += 0.68
      default: em += 0.56
      }
    }
    return em * size * (bold ? 1.12 : 1)  // bold glyphs advance about a tenth further
  }

  /// The opening of a page-like picture (a timeline, a sequence diagram):
  /// the XML declaration, the svg element, its title, a white ground, the
  /// title written large and the subtitle in grey under it.
  static func page(width: Double, height: Double, title: String, subtitle: String) -> String {
    """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
      viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
      <title>\(escape(title))</title>
      <rect width="100%" height="100%" fill="#ffffff"/>
      <text x="20" y="26" font-size="16" font-weight="bold">\(escape(title))</text>
      <text x="20" y="44" fill="#555555">\(escape(subtitle))</text>

      """
  }

  /// A number with at most two decimals, for coordinates.
  static func n(_ x: Double) -> String {
    let r = (x * 100).rounded() / 100
    return r == r.rounded() ? String(Int(r)) : String(r)
  }
}

/// An axis-aligned box, for placing labels apart.
struct Box {
  var x0, y0, x1, y1: Double
  func intersects(_ o: Box, margin: Double = 2) -> Bool {
    x0 - margin < o.x1 && o.x0 - margin < x1 && y0 - margin < o.y1 && o.y0 - margin < y1
  }
}
