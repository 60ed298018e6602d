declare_rule! {
    code: GW117,
    name: "cel-unknown-name",
    severity: Warning,
    summary: "A data-plane CEL expression reads a variable the data plane does not provide",
    explanation: "Expressions see request, response, source, destination, jwt, apiKey, basicAuth, \
        llm, llmRequest, mcp, backend, extauthz, extproc, metadata, env and proxy. Any other \
        top-level name fails when evaluated, usually because of a typo; the help suggests the \
        closest name.",
    example: Manifest {
        failing: include_str!("gw117_cel_unknown_name/failing.yaml"),
        fixed: include_str!("gw117_cel_unknown_name/fixed.yaml"),
    },
}
