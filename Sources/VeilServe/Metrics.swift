import Foundation
import Synchronization
import VeilKit

/// Counters for `GET /metrics` in Prometheus' text format: requests by route
/// and status, a latency histogram per route, requests in flight, rejections.
final class Metrics: Sendable {
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    private struct State {
        var requests: [String: [Int: Int]] = [:]
        var histograms: [String: (counts: [Int], sum: Double, count: Int)] = [:]
        var inFlight = 0
        var rejected: [String: Int] = [:]
        /// The transport's own counters, read when /metrics is asked for.
        var transport: @Sendable () -> [(String, UInt64)] = { [] }
    }

    private let state = Mutex(State())

    func started() { state.withLock { $0.inFlight += 1 } }

    /// A request counted by `started` that another path will count instead.
    func cancelled() { state.withLock { $0.inFlight -= 1 } }

    func setTransport(_ read: @escaping @Sendable () -> [(String, UInt64)]) { state.withLock { $0.transport = read } }

    func finished(route: String, status: Int, since start: UInt64) {
        finished(route: route, status: status, seconds: Uptime.seconds(since: start))
    }

    /// Requests being answered now.
    var current: Int { state.withLock { $0.inFlight } }

    func finished(route: String, status: Int, seconds: Double) {
        state.withLock { s in
            s.inFlight -= 1
            s.requests[route, default: [:]][status, default: 0] += 1
            var h = s.histograms[route] ?? (Array(repeating: 0, count: Metrics.buckets.count), 0, 0)
            for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound { h.counts[i] += 1 }
            h.sum += seconds
            h.count += 1
            s.histograms[route] = h
        }
    }

    /// `reason`: busy (no slot in time), timeout, too_large, over_budget (the
    /// total for bodies in flight), unauthorized.
    func rejected(_ reason: String) { state.withLock { $0.rejected[reason, default: 0] += 1 } }

    var text: String {
        let (requests, histograms, inFlight, rejected, transport) = state.withLock { s in
            (s.requests, s.histograms, s.inFlight, s.rejected, s.transport)
        }
        do {
            var out = "# HELP veil_http_requests_total Requests answered, by route and status.\n# TYPE veil_http_requests_total counter\n"
            for route in requests.keys.sorted() {
                for status in requests[route]!.keys.sorted() {
                    out += "veil_http_requests_total{route=\"\(route)\",status=\"\(status)\"} \(requests[route]![status]!)\n"
                }
            }
            out += "# HELP veil_http_request_duration_seconds Time from a complete request to its answer.\n# TYPE veil_http_request_duration_seconds histogram\n"
            for route in histograms.keys.sorted() {
                let h = histograms[route]!
                for (i, bound) in Metrics.buckets.enumerated() {
                    out += "veil_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(h.counts[i])\n"
                }
                out += "veil_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(h.count)\n"
                out += "veil_http_request_duration_seconds_sum{route=\"\(route)\"} \(h.sum)\n"
                out += "veil_http_request_duration_seconds_count{route=\"\(route)\"} \(h.count)\n"
            }
            out += "# HELP veil_http_in_flight Requests being answered now.\n# TYPE veil_http_in_flight gauge\nveil_http_in_flight \(inFlight)\n"
            out += "# HELP veil_http_rejected_total Requests refused by a limit, by reason.\n# TYPE veil_http_rejected_total counter\n"
            for reason in ["busy", "timeout", "too_large", "over_budget", "unauthorized"] {
                out += "veil_http_rejected_total{reason=\"\(reason)\"} \(rejected[reason] ?? 0)\n"
            }
            let counters = transport()
            if !counters.isEmpty {
                out += "# HELP veil_http_transport Connections closed for sending too slowly (slow_closed) or to make room (evicted), bodies held now (body_bytes).\n# TYPE veil_http_transport gauge\n"
                for (name, value) in counters { out += "veil_http_transport{counter=\"\(name)\"} \(value)\n" }
            }
            return out
        }
    }
}
