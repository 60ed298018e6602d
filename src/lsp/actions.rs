//! Code actions: the fixes of `gwctl lint --fix` as quick fixes, for the findings under the
//! cursor (or in the selected range).

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{CodeActionOrCommand, CodeActionParams, CodeActionResponse};

use crate::report::lsp::{offset, quick_fix};
use crate::source::SourceFile;

use super::uri;
use super::workspace::Workspace;

pub fn code_actions(ws: &Workspace, p: CodeActionParams) -> Option<CodeActionResponse> {
    let file = ws.file(&super::path_of(&p.text_document.uri)?)?;
    let (start, end) = (offset(file, p.range.start), offset(file, p.range.end));
    let uri_of = |f: &SourceFile| uri::from_path(Path::new(&f.name));
    let mut seen = HashMap::new();
    let actions =
        ws.run
            .diagnostics
            .iter()
            .filter(|finding| {
                finding.location.as_ref().is_some_and(|l| {
                    l.file == file.id && l.span.start <= end && start <= l.span.end
                })
            })
            .filter_map(|finding| quick_fix(finding, &ws.run.files, &uri_of))
            // Two findings with the same fix (one rename for two findings) offer it once.
            .filter(|a| seen.insert(a.title.clone(), ()).is_none())
            .map(CodeActionOrCommand::CodeAction)
            .collect();
    Some(actions)
}
