declare_rule! {
    code: GW127,
    name: "invalid-template",
    severity: Error,
    summary: "A transformation template does not compile",
    explanation: "TrafficPolicy transformation values (header `set`/`add` values, `body.value`) \
        are Jinja templates that the proxy compiles when it loads the route configuration: an \
        unclosed `{{`, `{%` or `{#`, an unclosed string or bracket, or block tags that do not nest \
        (`{% if %}` without `{% endif %}`) make it reject the configuration. The controller does \
        not compile templates: with validation level standard it accepts the policy and sends the \
        template on, and the proxy rejects the update; with strict it has the proxy check the \
        configuration first and replaces the routes the policy reaches with a direct response 500. \
        So gwctl's predicted policy status stays Accepted, while `render` treats the policy as \
        invalid. Only the syntax is checked: a name the template uses but the request does not \
        have is empty at run time.",
    example: Manifest {
        failing: include_str!("gw127_invalid_template/failing.yaml"),
        fixed: include_str!("gw127_invalid_template/fixed.yaml"),
    },
}
