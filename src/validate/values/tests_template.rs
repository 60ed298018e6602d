//! Transformation templates (GW127): exact findings through the whole pipeline on a
//! TrafficPolicy, and the checker's cases directly.

use super::check;
use crate::schema::compile::ValueFormat;
use crate::validate::tests::lint;

const HELP: &str = " [the proxy compiles the template when it loads the route configuration and rejects the configuration when it does not compile]";

fn policy(transformation: &str) -> String {
    format!(
        "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata: {{name: p, namespace: ns}}\nspec:\n  targetRefs:\n  - {{group: gateway.networking.k8s.io, kind: HTTPRoute, name: r}}\n  transformation:\n{transformation}"
    )
}

/// The messages of the template's findings, without the field path.
fn problems(template: &str) -> Vec<(String, std::ops::Range<usize>)> {
    check(ValueFormat::Template, template)
        .into_iter()
        .map(|f| (f.message, f.range.unwrap_or(0..0)))
        .collect()
}

#[test]
fn an_unclosed_expression_in_a_body_is_reported_where_it_goes_wrong() {
    // The corpus's malformed template: `}` where `}}` should end the expression.
    let found = lint(&policy(
        "    request:\n      body:\n        parseAs: AsJson\n        value: \"{{ invalid_template }\"\n",
    ));
    assert_eq!(
        found,
        [format!(
            "11:37 GW127 spec.transformation.request.body.value: template: unexpected `}}` in `{{{{`; the block ends with `}}}}`{HELP}"
        )]
    );
}

#[test]
fn header_values_of_both_directions_are_templates() {
    let found = lint(&policy(
        "    request:\n      set:\n      - name: x-a\n        value: '{{ header(\"x-b\") }}'\n      - name: x-c\n        value: '{% if x %}yes'\n    response:\n      add:\n      - name: x-d\n        value: 'id-{{ 1 + (2 }}'\n",
    ));
    assert_eq!(
        found,
        [
            format!(
                "13:17 GW127 spec.transformation.request.set[1].value: template: `{{% if %}}` is never closed with `{{% endif %}}`{HELP}"
            ),
            format!(
                "17:30 GW127 spec.transformation.response.add[0].value: template: unexpected `}}`, expected `)`{HELP}"
            ),
        ]
    );
}

#[test]
fn valid_templates_have_no_findings() {
    for ok in [
        "",
        "plain text, { and } alone",
        "{{ invalid_template }}",
        "{{ header(\"x-user\") | upper }}-{{ substring(body(), 0, 3) }}",
        "{\"user\": \"{{ request.headers['x-user'] }}\", \"data\": {{ body() }}}",
        "{{ {'a': [1, (2)]}['a'] }}",
        "{{- name -}} {%- if a == 1 -%}x{% elif b %}y{% else %}z{% endif %}",
        "{% for k in keys %}{{ k }}{% else %}none{% endfor %}",
        "{% set x = 'a}}' %}{{ x }}{% set y %}block{% endset %}",
        "{# a {{ comment #}{% raw %}{{ not parsed {% endraw %}",
        "{{ \"quoted \\\" }} still\" }}",
    ] {
        assert_eq!(problems(ok), vec![], "{ok}");
    }
}

#[test]
fn each_syntax_error_names_what_is_wrong_and_where() {
    let cases: [(&str, &str, std::ops::Range<usize>); 11] = [
        ("a {{ b", "template: `{{` is never closed with `}}`", 2..6),
        ("{{ }}", "template: `{{ }}` holds no expression", 0..5),
        ("{{ f(1] }}", "template: unexpected `]`, expected `)`", 6..7),
        ("{{ f(1", "template: `(` is never closed with `)`", 4..5),
        ("{{ 'abc }}", "template: string is never closed", 3..10),
        ("{# note", "template: `{#` is never closed with `#}`", 0..7),
        (
            "{% if a %}x{% endfor %}",
            "template: unexpected `{% endfor %}`, expected `{% endif %}`",
            11..23,
        ),
        (
            "x{% endif %}",
            "template: `{% endif %}` closes no open block",
            1..12,
        ),
        (
            "{% else %}",
            "template: `{% else %}` outside `{% if %}` or `{% for %}`",
            0..10,
        ),
        ("{% loop x %}", "template: unknown tag `loop`", 0..12),
        (
            "{% raw %}{{",
            "template: `{% raw %}` is never closed with `{% endraw %}`",
            0..9,
        ),
    ];
    for (template, message, range) in cases {
        assert_eq!(
            problems(template),
            vec![(message.to_string(), range)],
            "{template}"
        );
    }
}

#[test]
fn every_short_template_is_checked_without_panic_and_findings_point_inside_it() {
    // Every string of up to four of these pieces (delimiters, quotes, brackets, a multi-byte
    // character): a finding's range must lie on character boundaries within the text.
    let pieces = [
        "{", "}", "%", "#", "-", "'", "\"", "\\", "(", "]", "a", "é", " ", "{%", "%}",
    ];
    let mut texts = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = texts
            .iter()
            .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
            .collect();
        texts.extend(longer);
        texts.sort();
        texts.dedup();
    }
    for text in &texts {
        for f in check(ValueFormat::Template, text) {
            let r = f.range.unwrap_or(0..0);
            assert!(
                r.start <= r.end
                    && r.end <= text.len()
                    && text.is_char_boundary(r.start)
                    && text.is_char_boundary(r.end),
                "{text:?}: {r:?}"
            );
        }
    }
}
