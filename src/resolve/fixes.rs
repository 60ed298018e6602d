//! The fixes of reference findings: a name, sectionName or port one edit away from exactly one
//! candidate is changed to it. Unsafe: the reference may mean an object that is not in the inputs.

use crate::diag::{Edit, Fix};
use crate::model::facts::{GATEWAY_API, Ident};
use crate::source::{FileId, Span};

use super::Ctx;

/// The one candidate one edit (insertion, deletion, substitution, transposition) away from
/// `wrong`; `None` when none or several are.
pub(crate) fn one_edit_away<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let mut found: Option<&str> = None;
    for c in candidates {
        if strsim::damerau_levenshtein(wrong, c) == 1 {
            if found.is_some_and(|f| f != c) {
                return None;
            }
            found = Some(c);
        }
    }
    found
}

/// The unsafe fix that writes `new` in place of the value `old` of `field` at `span`.
pub(crate) fn change(file: FileId, span: Span, field: &str, old: &str, new: &str) -> Option<Fix> {
    let edit = Edit::rename_value(file, span, old, new)?;
    Some(Fix::unsafe_(
        format!("change {field} to {new:?}"),
        vec![edit],
    ))
}

/// [`one_edit_away`] and [`change`] together for a port among `ports`.
pub(crate) fn port(file: FileId, span: Span, wrong: i64, ports: &[i64]) -> Option<Fix> {
    let texts: Vec<String> = ports.iter().map(i64::to_string).collect();
    let wrong = wrong.to_string();
    let new = one_edit_away(&wrong, texts.iter().map(String::as_str))?;
    change(file, span, "port", &wrong, new)
}

/// GW208's fix: a ReferenceGrant in the target's namespace from exactly the referring object's
/// group, kind and namespace to the target's group and kind, appended to the referring object's
/// file as a new document. None for a JSON file (a YAML document would end its being JSON).
pub(crate) fn reference_grant(
    ctx: &Ctx<'_>,
    from: &Ident,
    (group, kind, ns): (&str, &str, &str),
) -> Option<Fix> {
    let text = ctx.options.sources.get(from.file)?;
    if text.trim_start().starts_with(['{', '[']) {
        return None;
    }
    let base = format!(
        "{}-{}-to-{}",
        from.namespace,
        from.kind.to_ascii_lowercase(),
        kind.to_ascii_lowercase()
    );
    // A name no grant in the namespace has yet (another grant's name would redefine it).
    let name = (1..100)
        .map(|i| {
            if i == 1 {
                base.clone()
            } else {
                format!("{base}-{i}")
            }
        })
        .find(|n| {
            ctx.index
                .get(GATEWAY_API, "ReferenceGrant", ns, n)
                .is_none()
        })?;
    let quote = |s: &str| serde_json::Value::from(s).to_string();
    let document = format!(
        "apiVersion: {GATEWAY_API}/v1beta1\nkind: ReferenceGrant\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n  from:\n  - group: {}\n    kind: {}\n    namespace: {}\n  to:\n  - group: {}\n    kind: {kind}\n",
        quote(&from.group),
        from.kind,
        from.namespace,
        quote(group),
    );
    Some(Fix::unsafe_(
        format!("add ReferenceGrant {ns}/{name}"),
        vec![Edit::append(from.file, text, &document)],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_candidate_one_edit_away() {
        assert_eq!(
            one_edit_away("checkuot", ["checkout", "cart"]),
            Some("checkout")
        );
        assert_eq!(one_edit_away("web", ["webs", "wed"]), None);
        assert_eq!(one_edit_away("web", ["webs", "webs"]), Some("webs"));
        assert_eq!(one_edit_away("web", ["wbbs"]), None);
        let fix = port(0, Span::new(4, 6), 81, &[80, 443]);
        assert_eq!(
            fix.map(|f| f.edits[0].replacement.clone()),
            Some("80".to_string())
        );
    }
}
