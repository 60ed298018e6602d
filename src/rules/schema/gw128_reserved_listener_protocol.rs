declare_rule! {
    code: GW128,
    name: "reserved-listener-protocol",
    severity: Warning,
    summary: "A listener's protocol is an un-prefixed name the Gateway API does not define",
    explanation: "The Gateway API reserves protocol names without a domain prefix for its own \
        protocols: HTTP, HTTPS, TLS, TCP and UDP. A protocol an implementation defines itself is \
        domain-prefixed (`example.com/my-protocol`). The CRD's pattern lets any name through, but \
        no implementation serves an un-prefixed name outside the five (`HTTP2`, `GRPC`, `h2c`): \
        the listener is not accepted (UnsupportedProtocol) and no route attaches to it. gRPC is \
        served by GRPCRoutes on an HTTP or HTTPS listener. HBONE, which Istio's ambient mesh \
        serves on its east-west Gateways, is not reported.",
    example: Manifest {
        failing: include_str!("gw128_reserved_listener_protocol/failing.yaml"),
        fixed: include_str!("gw128_reserved_listener_protocol/fixed.yaml"),
    },
}
