import Foundation
import LifeSimEngine

/// How a summary's 95% confidence interval of the mean is made.
public enum IntervalMethod: String, Sendable, CaseIterable {
  /// Student's t, unless its interval leaves the side of 0 every value is
  /// on (a count or a rate below 0): then the bootstrap percentile interval.
  case auto
  /// Student's t: mean ± t(0.975, n−1) · sd / √n, as R's `t.test` gives it.
  case t
  /// The bootstrap percentile interval: the 2.5th and 97.5th percentiles of
  /// the means of `Bootstrap.resamples` resamples, drawn by a generator with
  /// a fixed seed, so a summary is the same on every machine. It never leaves
  /// the values' range.
  case bootstrap

  /// The name a summary prints.
  public var name: String {
    switch self {
    case .auto: return "Student's t, or the bootstrap percentile interval where t would cross 0 and no value does"
    case .t: return "Student's t"
    case .bootstrap: return "bootstrap percentile (\(Bootstrap.resamples) resamples, seed \(Bootstrap.seed))"
    }
  }
}

/// The bootstrap's settings: fixed, so that every summary of a file agrees.
public enum Bootstrap {
  public static let resamples = 9_999
  public static let seed: UInt64 = 1

  /// The percentile interval of the mean of `values` (at least 2): each
  /// resample is `values.count` values drawn with replacement.
  public static func percentileInterval(_ values: [Double]) -> ClosedRange<Double> {
    let n = values.count
    var generator = SeededGenerator(seed: seed)
    var means = [Double](repeating: 0, count: resamples)
    for b in 0..<resamples {
      var sum = 0.0
      for _ in 0..<n { sum += values[Int(generator.nextUnit() * Double(n))] / Double(n) }
      means[b] = sum
    }
    means.sort()
    let low = quantile(means, 0.025), high = quantile(means, 0.975)
    // Rounding in the sums can put a mean of equal values a bit off them.
    let lo = Swift.max(low, values.min()!), hi = Swift.min(high, values.max()!)
    return lo <= hi ? lo...hi : hi...lo
  }
}

/// Student's t interval of the mean: nil when the spread overflows.
func studentInterval(mean: Double, sd: Double, n: Int) -> ClosedRange<Double>? {
  let half = studentT975(df: n - 1) * sd / Double(n).squareRoot()
  // A spread beyond the Double range makes an infinite half-width; an
  // interval is only given when it is one.
  let low = mean - half, high = mean + half
  return low.isFinite && high.isFinite && low <= high ? low...high : nil
}

/// The two-sided p value of Student's t statistic with `df` degrees of
/// freedom: I_{df/(df+t²)}(df/2, 1/2), the regularized incomplete beta.
func studentTwoSidedP(t: Double, df: Int) -> Double {
  if t.isNaN { return .nan }
  if t.isInfinite { return 0 }
  let v = Double(df)
  return regularizedIncompleteBeta(x: v / (v + t * t), a: v / 2, b: 0.5)
}

/// I_x(a, b) by its continued fraction (modified Lentz), on the side where
/// it converges fast.
func regularizedIncompleteBeta(x: Double, a: Double, b: Double) -> Double {
  if x <= 0 { return 0 }
  if x >= 1 { return 1 }
  let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
  let logPowers: Double = a * log(x) + b * log(1 - x)
  let front = exp(logGammas + logPowers)
  if x > (a + 1) / (a + b + 2) { return 1 - regularizedIncompleteBeta(x: 1 - x, a: b, b: a) }
  let tiny = 1e-300
  var c = 1.0, d = 1 - (a + b) * x / (a + 1)
  if abs(d) < tiny { d = tiny }
  d = 1 / d
  var f = d
  for m in 1...300 {
    let m = Double(m)
    var num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
    d = 1 + num * d; if abs(d) < tiny { d = tiny }
    c = 1 + num / c; if abs(c) < tiny { c = tiny }
    d = 1 / d
    f *= d * c
    num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
    d = 1 + num * d; if abs(d) < tiny { d = tiny }
    c = 1 + num / c; if abs(c) < tiny { c = tiny }
    d = 1 / d
    let delta = d * c
    f *= delta
    if abs(delta - 1) < 1e-15 { break }
  }
  return front * f / a
}
